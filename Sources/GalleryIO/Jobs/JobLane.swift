import Dispatch
import Foundation
import GLibKit
import Synchronization

/// One lane's threads and queue. A job that finds every thread busy starts another at once, up to the
/// limit; each thread that takes a job wakes the next while work waits, so a burst handed over by the
/// GTK thread wakes one thread from there, not a thread a job. The lane's own threads keep the jobs that
/// wait for their time: an idle thread waits for a wakeup only until the earliest is due.
final class JobLane: Sendable {
    private struct State {
        var queue = JobQueue()
        var threadCount = 0
        var idleThreads = 0
    }

    private let state = Mutex(State())
    private let wakeups = DispatchSemaphore(value: 0)
    private let name: String
    private let maximumThreads: Int

    init(name: String, threads: Int) {
        self.name = name
        maximumThreads = max(threads, 1)
    }

    /// How many threads wait for work: what a test waits for to hand work to an idle lane.
    var idleThreadCount: Int { state.withLock { $0.idleThreads } }

    /// Queues `work` now, or once `delay` has passed when it is longer than zero.
    func submit(
        _ priority: JobPriority, after delay: Duration, cancellation: CancellationToken?,
        _ work: @escaping @Sendable () -> Void
    ) {
        let job = JobQueue.Job(work: work, cancellation: cancellation)
        let next = state.withLock { state in
            let now = ContinuousClock.now
            guard delay <= .zero else {
                let due = now.advanced(by: delay)
                let isEarliest = state.queue.nextDue.map { due < $0 } ?? true
                state.queue.insert(job, priority: priority, due: due)
                return isEarliest ? threadForNewDeadline(&state) : .none
            }
            // Jobs that fell due meanwhile came before this one.
            if state.queue.nextDue != nil { state.queue.readyDue(now: now) }
            state.queue.insert(job, priority: priority)
            return nextThread(&state)
        }
        start(next)
    }

    private enum NextThread {
        case none
        case wakeIdle
        case startNew(number: Int)
    }

    /// Which thread takes the work still waiting: an idle one, or a new one; called with the state locked.
    private func nextThread(_ state: inout State) -> NextThread {
        guard !state.queue.isEmpty else { return .none }
        if state.idleThreads > 0 {
            state.idleThreads -= 1
            return .wakeIdle
        }
        guard state.threadCount < maximumThreads else { return .none }
        state.threadCount += 1
        return .startNew(number: state.threadCount)
    }

    /// Which thread waits for a job due before any other: an idle one, woken to wait for it instead of a later
    /// one; the first, when the lane has none yet; else none, as a busy thread sees it when its job ends.
    private func threadForNewDeadline(_ state: inout State) -> NextThread {
        if state.idleThreads > 0 {
            state.idleThreads -= 1
            return .wakeIdle
        }
        guard state.threadCount == 0 else { return .none }
        state.threadCount = 1
        return .startNew(number: 1)
    }

    private func start(_ next: NextThread) {
        switch next {
        case .none: break
        case .wakeIdle: wakeups.signal()
        case .startNew(let number):
            // The lane lives as long as the app: its threads hold it.
            Thread { [self] in run(name: "\(name)-\(number)") }.start()
        }
    }

    private enum Turn {
        case run(JobQueue.Job, next: NextThread)
        case idle(until: ContinuousClock.Instant?)
    }

    private func run(name: String) {
        CurrentThread.name(name)
        while true {
            let turn: Turn = state.withLock { state in
                if state.queue.nextDue != nil { state.queue.readyDue(now: .now) }
                while let job = state.queue.popFirst() {
                    if job.cancellation?.isCancelled == true { continue }
                    return .run(job, next: nextThread(&state))
                }
                state.idleThreads += 1
                return .idle(until: state.queue.nextDue)
            }
            switch turn {
            case .run(let job, let next):
                start(next)
                job.work()
            case .idle(until: nil):
                // Whoever signals has already counted this thread as woken.
                wakeups.wait()
            case .idle(until: let due?):
                waitForWakeup(until: due)
            }
        }
    }

    /// Waits, counted idle, for a wakeup or until `due`, and leaves counted busy either way.
    private func waitForWakeup(until due: ContinuousClock.Instant) {
        guard wakeups.wait(timeout: Self.dispatchTime(in: ContinuousClock.now.duration(to: due))) == .timedOut
        else { return }
        let claimed = state.withLock { state in
            // Idle threads are alike: while any is still counted, this one leaves the count, and every signal sent
            // meanwhile finds a thread still waiting.
            guard state.idleThreads == 0 else {
                state.idleThreads -= 1
                return false
            }
            return true
        }
        // None is: a signaller counted this one woken as its wait ended, and it takes that signal, so that none is left
        // over to wake a thread that idles later for nothing.
        if claimed { wakeups.wait() }
    }

    /// The dispatch time `duration` from now, rounded up to the nanosecond so that a wait never ends early.
    private static func dispatchTime(in duration: Duration) -> DispatchTime {
        guard duration > .zero else { return .now() }
        let (seconds, attoseconds) = duration.components
        // Beyond about 30 years: as good as never.
        guard seconds < 1_000_000_000 else { return .distantFuture }
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int((attoseconds + 999_999_999) / 1_000_000_000)
        return .now() + .nanoseconds(nanoseconds)
    }
}
