import Dispatch
import Synchronization
import Testing

@testable import GalleryIO

/// The scheduler's promises, made observable with semaphores: a job that holds a lane's only thread
/// while the others queue behind it, and jobs that report when they start and wait to be let go.
@Suite struct JobSchedulerTests {
    /// Long enough for any loaded machine; only reached when a test fails.
    private static var patience: DispatchTime { .now() + 20 }

    @Test(arguments: [JobScheduler.Lane.io, .cpu])
    func jobsRun(lane: JobScheduler.Lane) {
        let scheduler = JobScheduler(ioThreads: 2, cpuThreads: 2)
        let finished = DispatchSemaphore(value: 0)
        let ran = Mutex(0)
        for _ in 0..<20 {
            scheduler.submit(lane, .visible) {
                ran.withLock { $0 += 1 }
                finished.signal()
            }
        }
        for _ in 0..<20 { #expect(finished.wait(timeout: Self.patience) == .success) }
        #expect(ran.withLock { $0 } == 20)
    }

    @Test func queuedJobsRunByPriority() {
        let scheduler = JobScheduler(ioThreads: 1, cpuThreads: 1)
        let blocker = Blocker(scheduler, .cpu)
        let order = Mutex<[String]>([])
        let finished = DispatchSemaphore(value: 0)
        let jobs: [(String, JobPriority)] = [
            ("background 1", .background), ("prefetch 1", .prefetch), ("drop 2", .drop(2)), ("visible 1", .visible),
            ("drop 0", .drop(0)), ("viewer", .viewer), ("background 2", .background), ("visible 2", .visible),
            ("prefetch 2", .prefetch), ("drop 1", .drop(1)),
        ]
        for (name, priority) in jobs {
            scheduler.submit(.cpu, priority) {
                order.withLock { $0.append(name) }
                finished.signal()
            }
        }
        blocker.release()
        for _ in jobs { #expect(finished.wait(timeout: Self.patience) == .success) }
        #expect(
            order.withLock { $0 } == [
                "viewer", "visible 2", "visible 1", "drop 0", "drop 1", "drop 2", "prefetch 2", "prefetch 1",
                "background 1", "background 2",
            ])
    }

    @Test func cancelledJobIsSkipped() {
        let scheduler = JobScheduler(ioThreads: 1, cpuThreads: 1)
        let blocker = Blocker(scheduler, .io)
        let ran = Mutex<[String]>([])
        let finished = DispatchSemaphore(value: 0)
        let cancelled = CancellationToken()
        let kept = CancellationToken()
        for (name, token) in [("cancelled", cancelled), ("kept", kept)] {
            scheduler.submit(.io, .background, cancellation: token) {
                ran.withLock { $0.append(name) }
                finished.signal()
            }
        }
        // Background jobs run in the order they came: once this one has run, the cancelled one had its turn.
        scheduler.submit(.io, .background) { finished.signal() }
        cancelled.cancel()
        blocker.release()
        #expect(finished.wait(timeout: Self.patience) == .success)
        #expect(finished.wait(timeout: Self.patience) == .success)
        #expect(ran.withLock { $0 } == ["kept"])
    }

    @Test(arguments: [(JobScheduler.Lane.io, 3), (.cpu, 2)])
    func laneRunsNoMoreThreadsThanItsLimit(lane: JobScheduler.Lane, limit: Int) {
        let scheduler = JobScheduler(ioThreads: 3, cpuThreads: 2)
        let counts = Mutex((running: 0, most: 0))
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let jobCount = 12
        for _ in 0..<jobCount {
            scheduler.submit(lane, .visible) {
                counts.withLock { counts in
                    counts.running += 1
                    counts.most = max(counts.most, counts.running)
                }
                started.signal()
                release.wait()
                counts.withLock { $0.running -= 1 }
                finished.signal()
            }
        }
        // Every thread the lane may run is busy and blocked now: one more would start a job.
        for _ in 0..<limit { #expect(started.wait(timeout: Self.patience) == .success) }
        #expect(started.wait(timeout: .now() + 0.2) == .timedOut)
        for _ in 0..<jobCount { release.signal() }
        for _ in 0..<jobCount { #expect(finished.wait(timeout: Self.patience) == .success) }
        #expect(counts.withLock { $0.most } == limit)
    }

    @Test func lanesDoNotWaitForEachOther() {
        let scheduler = JobScheduler(ioThreads: 1, cpuThreads: 1)
        let blocker = Blocker(scheduler, .io)
        let decoded = DispatchSemaphore(value: 0)
        scheduler.submit(.cpu, .background) { decoded.signal() }
        #expect(decoded.wait(timeout: Self.patience) == .success)
        blocker.release()
    }
}

/// A job that holds one of a lane's threads until released: the jobs queued meanwhile wait their turn.
private struct Blocker {
    private let released = DispatchSemaphore(value: 0)

    init(_ scheduler: JobScheduler, _ lane: JobScheduler.Lane) {
        let started = DispatchSemaphore(value: 0)
        scheduler.submit(lane, .viewer) { [released] in
            started.signal()
            released.wait()
        }
        started.wait()
    }

    func release() { released.signal() }
}
