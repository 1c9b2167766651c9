import Synchronization

/// Lets another thread stop work: a queued job is skipped, a download stops at libcurl's next progress
/// call (about once a second even while no byte arrives). An atomic, so the GTK thread cancels without
/// waiting for anyone.
public final class CancellationToken: Sendable {
    private let cancelled = Atomic(false)
    /// For work several requests share (one download of an address): cancelled once every one of theirs is.
    private let sharers: Mutex<[CancellationToken]>?

    public init() {
        sharers = nil
    }

    /// A token for work that `first`'s request starts and others may share (`share(with:)`).
    init(sharedBy first: CancellationToken) {
        sharers = Mutex([first])
    }

    public func cancel() {
        cancelled.store(true, ordering: .relaxed)
    }

    public var isCancelled: Bool {
        if cancelled.load(ordering: .relaxed) { return true }
        return sharers?.withLock { $0.allSatisfy(\.isCancelled) } ?? false
    }

    /// Counts `other`'s request among those sharing the work, which then goes on while it is wanted.
    func share(with other: CancellationToken) {
        sharers?.withLock { $0.append(other) }
    }
}
