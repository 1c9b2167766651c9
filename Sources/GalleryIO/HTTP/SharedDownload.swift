import Foundation
import Synchronization

/// One download of an address that several requests wait on (a cell, the library's carry-over, an
/// export): the bytes come once. Each request keeps its own lane, cancellation and way of keeping them.
final class SharedDownload: Sendable {
    /// One request waiting for the bytes, as `ImageBytesSource.download` was asked.
    struct Waiter: Sendable {
        let sha256: String?
        let cancellation: CancellationToken
        let thenEvenIfCancelled: Bool
        let lane: JobScheduler.Lane
        let caching: Bool
        let progress: @Sendable (Int64, Int64?) -> Bool
        let then: @Sendable (Result<FetchedBytes, LoadFailure>) -> Void
    }

    let priority: JobPriority
    /// Cancelled once every waiter's request is.
    let cancellation: CancellationToken
    /// A waiter, the key of its handler on its own cancellation, and whether it left, cancelled.
    private struct Entry {
        let waiter: Waiter
        var key: Int?
        var left = false
    }

    private let waiters: Mutex<(list: [Entry], finished: Bool)>
    /// Hands a waiter whose request was cancelled its "cancelled" at once (when it wants it), not when the
    /// download, which others still wait for, ends.
    private let onLeave: @Sendable (Waiter) -> Void

    init(priority: JobPriority, first: Waiter, onLeave: @escaping @Sendable (Waiter) -> Void) {
        self.priority = priority
        self.onLeave = onLeave
        cancellation = CancellationToken(sharedBy: first.cancellation)
        waiters = Mutex(([Entry(waiter: first)], false))
        listen(to: first, listed: 0)
    }

    /// Adds `waiter` unless the download has ended, or runs at a lower priority than it asks for (it
    /// would wait behind work it should go before).
    func join(_ waiter: Waiter, priority: JobPriority) -> Bool {
        guard self.priority.mayBeShared(by: priority) else { return false }
        let serial: Int? = waiters.withLock { state in
            guard !state.finished, !cancellation.isCancelled else { return nil }
            cancellation.share(with: waiter.cancellation)
            state.list.append(Entry(waiter: waiter))
            return state.list.count - 1
        }
        guard let serial else { return false }
        listen(to: waiter, listed: serial)
        return true
    }

    /// Hears the cancellation of the waiter listed `serial`-th, which may come at once.
    private func listen(to waiter: Waiter, listed serial: Int) {
        guard let key = waiter.cancellation.onCancel({ [weak self] in self?.leave(serial) }) else { return }
        let ended = waiters.withLock { state in
            state.list[serial].key = key
            return state.finished
        }
        if ended { waiter.cancellation.removeHandler(key) }
    }

    /// The waiter listed `serial`-th was cancelled: it leaves, unless the download has ended already.
    private func leave(_ serial: Int) {
        let leaving: Waiter? = waiters.withLock { state in
            guard !state.finished, !state.list[serial].left else { return nil }
            state.list[serial].left = true
            return state.list[serial].waiter
        }
        if let leaving { onLeave(leaving) }
    }

    /// Tells every waiter still wanting the bytes how far the download is; false once none does.
    func progress(received: Int64, expected: Int64?) -> Bool {
        let list = waiters.withLock { $0.list }
        var wanted = false
        for entry in list where !entry.left && !entry.waiter.cancellation.isCancelled {
            wanted = entry.waiter.progress(received, expected) || wanted
        }
        return wanted
    }

    /// The waiters still waiting, once the download has ended: none can join or leave after.
    func finish() -> [Waiter] {
        let list = waiters.withLock { state in
            state.finished = true
            return state.list
        }
        for entry in list { if let key = entry.key { entry.waiter.cancellation.removeHandler(key) } }
        return list.filter { !$0.left }.map(\.waiter)
    }
}
