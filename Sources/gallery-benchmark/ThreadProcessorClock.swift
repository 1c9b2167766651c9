import Foundation

/// The processor time this thread spends.
struct ThreadProcessorClock {
    func measure(_ body: () -> Void) -> Duration {
        func now() -> Duration {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
        }
        let start = now()
        body()
        return now() - start
    }
}
