import Foundation

/// When the saver may write next, paced by what its writes cost: while changes keep coming (a drop landing, the
/// carry-over keeping images) each write of the whole state is followed by a wait proportional to how long it took,
/// so saving takes a bounded share of the time whatever the library's size; after a quiet spell a save goes at once.
public struct SavePacing: Sendable {
    /// A write of the state that took d (not the flush of the originals it names, which grows with the wait) is
    /// followed by the next no sooner than `spacing` × d after it began: the saver then spends at most a tenth of its
    /// time writing the state, while the changes a kill -9 can lose are those of ten writes' time.
    static let spacing = 10

    /// The time the saver reads and the way it waits, apart so that tests set the time themselves.
    public struct Clock: Sendable {
        let now: @Sendable () -> ContinuousClock.Instant
        /// Runs the work once the duration has passed, on a thread of its own.
        let after: @Sendable (Duration, @escaping @Sendable () -> Void) -> Void

        public init(
            now: @escaping @Sendable () -> ContinuousClock.Instant,
            after: @escaping @Sendable (Duration, @escaping @Sendable () -> Void) -> Void
        ) {
            self.now = now
            self.after = after
        }

        public static let system = Clock(
            now: { .now },
            after: { delay, work in
                let (seconds, attoseconds) = delay.components
                let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
                DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds), execute: work)
            })
    }

    private var earliestNextWrite: ContinuousClock.Instant?

    /// How long a save asked for at `now` waits for its turn: zero after a quiet spell.
    func wait(at now: ContinuousClock.Instant) -> Duration {
        guard let earliestNextWrite, earliestNextWrite > now else { return .zero }
        return now.duration(to: earliestNextWrite)
    }

    /// Notes a write that ran from `start` to `end`.
    mutating func wrote(from start: ContinuousClock.Instant, to end: ContinuousClock.Instant) {
        earliestNextWrite = start.advanced(by: start.duration(to: end) * Self.spacing)
    }
}
