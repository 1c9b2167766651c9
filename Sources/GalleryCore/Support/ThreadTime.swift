import Foundation

/// The processor time the calling thread has taken: what a piece of work cost, whatever else the machine was doing.
public enum ThreadTime {
    public static func now() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
}
