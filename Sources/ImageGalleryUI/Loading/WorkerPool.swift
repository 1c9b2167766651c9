import Foundation
import GtkKit

/// Threads of its own for work that waits on the network. GCD on Linux adds threads slowly when
/// its workers block, so eight stalled transfers on its pool held every other image back for
/// seconds; here a job that finds every thread busy starts another at once, up to the limit. The
/// newest job runs first: it is what the user looks at now.
final class WorkerPool: @unchecked Sendable {
    /// A job not yet started can be withdrawn; one under way runs to its end.
    final class Job: @unchecked Sendable {
        fileprivate let work: @Sendable () -> Void
        fileprivate var started = false  // guarded by the pool's condition
        fileprivate var withdrawn = false  // guarded by the pool's condition
        /// A job to hand to `submit(_:)` later; it can be withdrawn before that.
        init(_ work: @escaping @Sendable () -> Void) { self.work = work }
    }

    private let condition = NSCondition()
    private var pending: [Job] = []  // guarded by condition
    private var threadCount = 0  // guarded by condition
    private var idleThreads = 0  // guarded by condition
    private let maximumThreads: Int
    private let name: String

    init(threads: Int, name: String) {
        maximumThreads = max(threads, 1)
        self.name = name
    }

    @discardableResult
    func submit(_ work: @escaping @Sendable () -> Void) -> Job {
        let job = Job(work)
        submit([job])
        return job
    }

    /// Queues jobs made beforehand (the last one runs first), skipping those withdrawn since, and
    /// wakes one thread: each wake-up may take the core from the caller, so the window's thread
    /// hands over a frame's worth of work in one go, after the frame, and wakes or starts one thread
    /// at most. Each thread that takes a job wakes or starts the next while work waits (a drop's 64
    /// transfers did not start 64 threads, nor wake 20 idle ones, from the window's thread).
    func submit(_ jobs: [Job]) {
        condition.lock()
        pending.append(contentsOf: jobs.filter { !$0.withdrawn })
        let number = idleThreads > 0 ? nil : reserveThread()
        condition.signal()
        condition.unlock()
        if let number { startThread(number) }
    }

    /// Withdraws a job that has not started; returns false when it already has.
    @discardableResult
    func withdraw(_ job: Job) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !job.started else { return false }
        job.withdrawn = true  // also when not queued yet: `submit(_:)` skips it
        pending.removeAll { $0 === job }
        return true
    }

    /// The number of a thread to start when work waits for more threads than are idle; condition held.
    private func reserveThread() -> Int? {
        guard pending.count > idleThreads, threadCount < maximumThreads else { return nil }
        threadCount += 1
        return threadCount
    }

    private func startThread(_ number: Int) {
        // The pool lives as long as the app: its threads hold it.
        let thread = Thread { [self] in run() }
        thread.name = "\(name)-\(number)"
        thread.start()
    }

    private func run() {
        CurrentThread.lowerPriority(by: 5)
        while true {
            condition.lock()
            while pending.isEmpty {
                idleThreads += 1
                condition.wait()
                idleThreads -= 1
            }
            let job = pending.removeLast()
            job.started = true
            if !pending.isEmpty, idleThreads > 0 { condition.signal() }
            let next = reserveThread()
            condition.unlock()
            if let next { startThread(next) }
            job.work()
        }
    }
}
