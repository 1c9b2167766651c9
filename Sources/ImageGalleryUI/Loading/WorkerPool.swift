import Dispatch
import Foundation
import GtkKit
import Synchronization

/// Threads of its own for work that waits on the network or the disk. GCD on Linux adds threads
/// slowly when its workers block, so eight stalled transfers on its pool held every other image
/// back for seconds; here a job that finds every thread busy starts another at once, up to the
/// limit. The newest job runs first: it is what the user looks at now. Jobs given a rank (a drop's
/// images) wait behind those, lowest rank first.
///
/// The threads run at a nice value above the process's (5 unless told), so they yield the cores to
/// the window's thread yet still progress on a busy desktop. The window's thread takes the pool's
/// lock to hand work over; workers hold it only to take a job, and idle ones sleep on a semaphore,
/// not under it.
final class WorkerPool: Sendable {
    /// A job not yet started can be withdrawn; one under way runs to its end.
    final class Job: @unchecked Sendable {
        fileprivate let work: @Sendable () -> Void
        fileprivate var started = false  // guarded by the pool's state lock
        fileprivate var withdrawn = false  // guarded by the pool's state lock
        /// A job to hand to `submit(_:)` later; it can be withdrawn before that.
        init(_ work: @escaping @Sendable () -> Void) { self.work = work }
    }

    private struct State {
        var pending: [Job] = []
        /// Ranked jobs, highest rank first: the last runs next.
        var ranked: [(rank: Int, job: Job)] = []
        var threadCount = 0
        var idleThreads = 0
    }

    private let state = Mutex(State())
    private let wakeups = DispatchSemaphore(value: 0)
    private let maximumThreads: Int
    private let name: String
    private let niceness: Int

    /// - Parameter niceness: how far the threads' nice value is above the process's.
    init(threads: Int, name: String, niceness: Int = 5) {
        maximumThreads = max(threads, 1)
        self.name = name
        self.niceness = niceness
    }

    @discardableResult
    func submit(_ work: @escaping @Sendable () -> Void) -> Job {
        let job = Job(work)
        submit([job])
        return job
    }

    /// Queues `work` behind every unranked job and every ranked one of a lower `rank`.
    func submit(rank: Int, _ work: @escaping @Sendable () -> Void) {
        let next = state.withLock { state in
            let position = state.ranked.firstIndex { $0.rank < rank } ?? state.ranked.endIndex
            state.ranked.insert((rank, Job(work)), at: position)
            return nextThread(&state)
        }
        start(next)
    }

    /// Queues jobs made beforehand (the last one runs first), skipping those withdrawn since, and
    /// wakes one thread: each wake-up may take the core from the caller, so the window's thread
    /// hands over a frame's worth of work in one go, after the frame, and wakes or starts one thread
    /// at most. Each thread that takes a job wakes or starts the next while work waits (a drop's 64
    /// transfers did not start 64 threads, nor wake 20 idle ones, from the window's thread).
    func submit(_ jobs: [Job]) {
        let next = state.withLock { state in
            state.pending.append(contentsOf: jobs.filter { !$0.withdrawn })
            return nextThread(&state)
        }
        start(next)
    }

    /// Withdraws a job that has not started; returns false when it already has.
    @discardableResult
    func withdraw(_ job: Job) -> Bool {
        state.withLock { state in
            guard !job.started else { return false }
            job.withdrawn = true  // also when not queued yet: `submit(_:)` skips it
            state.pending.removeAll { $0 === job }
            return true
        }
    }

    private enum NextThread {
        case none
        case wakeIdle
        case startNew(number: Int)
    }

    /// Which thread takes the work still waiting: an idle one, or a new one; state locked.
    private func nextThread(_ state: inout State) -> NextThread {
        guard !state.pending.isEmpty || !state.ranked.isEmpty else { return .none }
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
            // The pool lives as long as the app: its threads hold it.
            Thread { [self] in run(name: "\(name)-\(number)") }.start()
        }
    }

    private func run(name: String) {
        CurrentThread.name(name)
        CurrentThread.lowerPriority(by: niceness)
        while true {
            let taken: (job: Job, next: NextThread)? = state.withLock { state in
                guard let job = state.pending.popLast() ?? state.ranked.popLast()?.job else {
                    state.idleThreads += 1
                    return nil
                }
                job.started = true
                return (job, nextThread(&state))
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
