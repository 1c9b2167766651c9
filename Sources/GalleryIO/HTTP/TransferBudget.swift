import Synchronization

/// The bytes downloads hold in memory, received or received and not yet decoded, against one ceiling
/// (`ImageLimits.transferBytesHeld`): a flood of large answers or gzip bombs waits instead of adding up.
final class TransferBudget: Sendable {
    let limit: Int64
    private let state = Mutex<(held: Int64, releasedSinceLook: Bool)>((0, false))
    /// Wakes whoever waits for room: the transfer thread.
    private let onRelease: @Sendable () -> Void

    init(limit: Int64, onRelease: @escaping @Sendable () -> Void) {
        self.limit = limit
        self.onRelease = onRelease
    }

    var held: Int64 { state.withLock { $0.held } }

    var hasRoom: Bool { held < limit }

    /// Counts `count` more bytes held if they fit, or whatever the total when `evenOver` (the one transfer
    /// that always goes on, so that the budget can never stop every transfer at once).
    func take(_ count: Int64, evenOver: Bool) -> Bool {
        state.withLock { state in
            guard evenOver || state.held + count <= limit else { return false }
            state.held += count
            return true
        }
    }

    func release(_ count: Int64) {
        guard count > 0 else { return }
        state.withLock { state in
            state.held -= count
            state.releasedSinceLook = true
        }
        onRelease()
    }

    /// Whether bytes were released since the last call: paused transfers may have room again.
    func takeReleased() -> Bool {
        state.withLock { state in
            defer { state.releasedSinceLook = false }
            return state.releasedSinceLook
        }
    }
}

/// A finished download's bytes, counted against the transfer budget until the last holder of the
/// response lets go of it (the job that caches and decodes them).
public final class HeldBytes: Sendable {
    public let count: Int64
    private let budget: TransferBudget

    init(_ count: Int64, of budget: TransferBudget) {
        self.count = count
        self.budget = budget
    }

    deinit { budget.release(count) }
}
