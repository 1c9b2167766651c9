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
        let then: @Sendable (Result<Data, LoadFailure>) -> Void
    }

    let priority: JobPriority
    /// Cancelled once every waiter's request is.
    let cancellation: CancellationToken
    private let waiters: Mutex<(list: [Waiter], finished: Bool)>

    init(priority: JobPriority, first: Waiter) {
        self.priority = priority
        cancellation = CancellationToken(sharedBy: first.cancellation)
        waiters = Mutex(([first], false))
    }

    /// Adds `waiter` unless the download has ended, or runs at a lower priority than it asks for (it
    /// would wait behind work it should go before).
    func join(_ waiter: Waiter, priority: JobPriority) -> Bool {
        guard self.priority.mayBeShared(by: priority) else { return false }
        return waiters.withLock { state in
            guard !state.finished, !cancellation.isCancelled else { return false }
            state.list.append(waiter)
            cancellation.share(with: waiter.cancellation)
            return true
        }
    }

    /// Tells every waiter still wanting the bytes how far the download is; false once none does.
    func progress(received: Int64, expected: Int64?) -> Bool {
        let list = waiters.withLock { $0.list }
        var wanted = false
        for waiter in list where !waiter.cancellation.isCancelled {
            wanted = waiter.progress(received, expected) || wanted
        }
        return wanted
    }

    /// The waiters, once the download has ended: none can join after.
    func finish() -> [Waiter] {
        waiters.withLock { state in
            state.finished = true
            return state.list
        }
    }
}
