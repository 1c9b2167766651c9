/// The jobs waiting in a lane, as a binary heap: the next to run is the one of the highest class, and
/// within it the lowest order.
struct JobQueue {
    struct Job {
        let work: @Sendable () -> Void
        let cancellation: CancellationToken?
    }

    private struct Entry {
        let jobClass: Int
        let order: Int
        let job: Job

        func runsBefore(_ other: Entry) -> Bool {
            (jobClass, order) < (other.jobClass, other.order)
        }
    }

    private var heap: [Entry] = []
    /// Counts arrivals: the order of jobs queued without one.
    private var arrivals = 0

    var isEmpty: Bool { heap.isEmpty }
    var count: Int { heap.count }

    mutating func insert(_ job: Job, priority: JobPriority) {
        arrivals += 1
        let (jobClass, order) = priority.rank(arrival: arrivals)
        heap.append(Entry(jobClass: jobClass, order: order, job: job))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].runsBefore(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    mutating func popFirst() -> Job? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let first = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var next = parent
            if left < heap.count, heap[left].runsBefore(heap[next]) { next = left }
            if right < heap.count, heap[right].runsBefore(heap[next]) { next = right }
            guard next != parent else { break }
            heap.swapAt(parent, next)
            parent = next
        }
        return first.job
    }
}
