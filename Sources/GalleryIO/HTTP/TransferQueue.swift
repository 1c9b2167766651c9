/// Transfers waiting for a connection, by the server they go to, each server's in the order jobs of their
/// priorities run: the next to start is the first of a server that has a connection free. A transfer set aside
/// because it stalled waits behind every image the user waits for, before prefetching and background work.
struct TransferQueue {
    private struct Entry {
        let rank: (jobClass: Int, setAside: Int, order: Int)
        let request: TransferRequest

        /// The viewer's image, a cell on screen or a dropped image, not one set aside for stalling.
        var isWatched: Bool { rank.setAside == 0 && rank.jobClass <= JobPriority.Class.drop.rawValue }
    }

    private var byHost: [String: [Entry]] = [:]
    private var arrivals = 0

    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// Queues `request`; `setAside` when it stalled and gave up its connection, to start again after the
    /// images the user waits for.
    mutating func insert(_ request: TransferRequest, setAside: Bool = false) {
        arrivals += 1
        let rank = request.priority.rank(arrival: arrivals)
        let watched = JobPriority.Class.drop.rawValue
        let entry = Entry(
            rank: setAside ? (max(rank.jobClass, watched), 1, arrivals) : (rank.jobClass, 0, rank.order),
            request: request)
        var entries = byHost.removeValue(forKey: request.hostKey) ?? []
        // After every entry that runs before it or with it: equal ranks keep their arrival order.
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entry.rank < entries[middle].rank { high = middle } else { low = middle + 1 }
        }
        entries.insert(entry, at: low)
        byHost[request.hostKey] = entries
        count += 1
    }

    /// The first transfer of the servers for which `hasRoom` holds, taken out of the queue.
    mutating func popFirst(where hasRoom: (_ hostKey: String) -> Bool) -> TransferRequest? {
        var best: (host: String, rank: (jobClass: Int, setAside: Int, order: Int))?
        for (host, entries) in byHost where hasRoom(host) {
            if let first = entries.first, best.map({ first.rank < $0.rank }) ?? true { best = (host, first.rank) }
        }
        guard let host = best?.host, var entries = byHost.removeValue(forKey: host) else { return nil }
        let first = entries.removeFirst()
        if !entries.isEmpty { byHost[host] = entries }
        count -= 1
        return first.request
    }

    /// Whether an image the user waits for is queued for a server for which `blocked` holds.
    func hasWatched(where blocked: (_ hostKey: String) -> Bool) -> Bool {
        // A server's first entry is its best: when it is not watched, none of its entries is.
        byHost.contains { host, entries in entries.first?.isWatched == true && blocked(host) }
    }

    /// Takes the cancelled transfers out of the queue and returns them.
    mutating func removeCancelled() -> [TransferRequest] {
        var removed: [TransferRequest] = []
        for (host, entries) in byHost {
            let kept = entries.filter { $0.request.cancellation?.isCancelled != true }
            guard kept.count < entries.count else { continue }
            removed += entries.filter { $0.request.cancellation?.isCancelled == true }.map(\.request)
            byHost[host] = kept.isEmpty ? nil : kept
        }
        count -= removed.count
        return removed
    }
}
