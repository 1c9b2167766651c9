import Synchronization

/// Lets another thread stop work: a queued job is skipped, a download stops at libcurl's next progress
/// call (about once a second even while no byte arrives). An atomic, so the GTK thread cancels without
/// waiting for anyone.
public final class CancellationToken: Sendable {
    private let cancelled = Atomic(false)
    /// For work several requests share (one download of an address): cancelled once every one of theirs is.
    private let sharers: Mutex<[CancellationToken]>?
    /// Called once at `cancel()`, by key: a request waiting on work others share hears it at once.
    private let handlers = Mutex<(nextKey: Int, byKey: [Int: @Sendable () -> Void])>((0, [:]))

    public init() {
        sharers = nil
    }

    /// A token for work that `first`'s request starts and others may share (`share(with:)`).
    init(sharedBy first: CancellationToken) {
        sharers = Mutex([first])
    }

    public func cancel() {
        let called = handlers.withLock { handlers in
            cancelled.store(true, ordering: .relaxed)
            defer { handlers.byKey = [:] }
            return handlers.byKey.values
        }
        for handler in called { handler() }
    }

    /// Calls `handler` when this token is cancelled (at once, on this thread, when it is already), on the
    /// thread that cancels it; returns the key to remove it with, nil when it was called already.
    func onCancel(_ handler: @escaping @Sendable () -> Void) -> Int? {
        let key: Int? = handlers.withLock { handlers in
            guard !cancelled.load(ordering: .relaxed) else { return nil }
            defer { handlers.nextKey += 1 }
            handlers.byKey[handlers.nextKey] = handler
            return handlers.nextKey
        }
        if key == nil { handler() }
        return key
    }

    /// Forgets a handler `onCancel` was given, once what it would stop is over.
    func removeHandler(_ key: Int) {
        _ = handlers.withLock { $0.byKey.removeValue(forKey: key) }
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
