import Synchronization

/// Lets another thread stop work: a queued job is skipped, a download stops at libcurl's next progress
/// call (about once a second even while no byte arrives). An atomic, so the GTK thread cancels without
/// waiting for anyone.
public final class CancellationToken: Sendable {
    private let cancelled = Atomic(false)

    public init() {}

    public func cancel() {
        cancelled.store(true, ordering: .relaxed)
    }

    public var isCancelled: Bool {
        cancelled.load(ordering: .relaxed)
    }
}
