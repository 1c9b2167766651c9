/// The jobs waiting in a lane: those ready as a binary heap, the next to run the one of the highest class, and
/// within it the lowest order; those waiting for their time by when they are due, each taking its place among the
/// ready ones once due (`readyDue`), as if submitted then.
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

    private struct Delayed {
        let due: ContinuousClock.Instant
        let priority: JobPriority
        let job: Job
    }

    private var heap: [Entry] = []
    /// The jobs not yet due, the latest due first: the earliest leaves from the end, and jobs due at the same
    /// instant leave in the order they came.
    private var delayed: [Delayed] = []
    /// Counts arrivals: the order of jobs queued without one.
    private var arrivals = 0

    /// Whether no job is ready to run (some may wait for their time).
    var isEmpty: Bool { heap.isEmpty }
    var count: Int { heap.count }
    /// When the earliest job waiting for its time is due.
    var nextDue: ContinuousClock.Instant? { delayed.last?.due }

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

    /// Keeps `job` until `due`, when `readyDue` queues it at `priority`.
    mutating func insert(_ job: Job, priority: JobPriority, due: ContinuousClock.Instant) {
        // After every job due later; before those due earlier, and those due at the same instant, which leave first.
        var low = 0
        var high = delayed.count
        while low < high {
            let middle = (low + high) / 2
            if delayed[middle].due > due { low = middle + 1 } else { high = middle }
        }
        delayed.insert(Delayed(due: due, priority: priority, job: job), at: low)
    }

    /// Queues, in the order they fell due, the jobs due by `now`; one cancelled meanwhile is dropped.
    mutating func readyDue(now: ContinuousClock.Instant) {
        while let last = delayed.last, last.due <= now {
            delayed.removeLast()
            if last.job.cancellation?.isCancelled == true { continue }
            insert(last.job, priority: last.priority)
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
