import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// When the saver may write next, paced by what its writes cost: while changes keep coming (a drop landing, the
/// carry-over keeping images) each write of the whole state is followed by a wait proportional to the processor time
/// it took, so saving takes a bounded share of the processor whatever the library's size; after a quiet spell a save
/// goes at once.
public struct SavePacing: Sendable {
    /// A write that took d of processor time is followed by the next no sooner than `spacing` × d after it began, so
    /// the saver takes at most a tenth of a processor while changes stream in and a kill -9 loses only milliseconds of
    /// them (processor time, not the write's duration, which a busy disk stretches to seconds).
    static let spacing = 10

    /// The time the saver reads, apart so that tests set it themselves (the saver waits through its
    /// `runInBackground`).
    public struct Clock: Sendable {
        let now: @Sendable () -> ContinuousClock.Instant
        /// The processor time the calling thread has taken.
        let threadTime: @Sendable () -> Duration

        public init(
            now: @escaping @Sendable () -> ContinuousClock.Instant, threadTime: @escaping @Sendable () -> Duration
        ) {
            self.now = now
            self.threadTime = threadTime
        }

        public static let system = Clock(
            now: { .now },
            threadTime: ThreadTime.now)
    }

    private var earliestNextWrite: ContinuousClock.Instant?

    /// How long a save asked for at `now` waits for its turn: zero after a quiet spell.
    func wait(at now: ContinuousClock.Instant) -> Duration {
        guard let earliestNextWrite, earliestNextWrite > now else { return .zero }
        return now.duration(to: earliestNextWrite)
    }

    /// Notes a write that began at `start` and took `cost` of processor time.
    mutating func wrote(at start: ContinuousClock.Instant, cost: Duration) {
        earliestNextWrite = start.advanced(by: cost * Self.spacing)
    }
}
