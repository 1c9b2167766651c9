import Dispatch
import Foundation
import GtkKit
import Synchronization

/// One lane's threads and queue. A job that finds every thread busy starts another at once, up to the
/// limit; each thread that takes a job wakes the next while work waits, so a burst handed over by the
/// GTK thread wakes one thread from there, not a thread a job.
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

    func submit(_ priority: JobPriority, cancellation: CancellationToken?, _ work: @escaping @Sendable () -> Void) {
        let next = state.withLock { state in
            state.queue.insert(JobQueue.Job(work: work, cancellation: cancellation), priority: priority)
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

    private func start(_ next: NextThread) {
        switch next {
        case .none: break
        case .wakeIdle: wakeups.signal()
        case .startNew(let number):
            // The lane lives as long as the app: its threads hold it.
            Thread { [self] in run(name: "\(name)-\(number)") }.start()
        }
    }

    private func run(name: String) {
        CurrentThread.name(name)
        while true {
            let taken: (job: JobQueue.Job, next: NextThread)? = state.withLock { state in
                while let job = state.queue.popFirst() {
                    if job.cancellation?.isCancelled == true { continue }
                    return (job, nextThread(&state))
                }
                state.idleThreads += 1
                return nil
            }
            guard let taken else {
                // Whoever signals has already counted this thread as woken.
                wakeups.wait()
                continue
            }
            start(taken.next)
            taken.job.work()
        }
    }
}
