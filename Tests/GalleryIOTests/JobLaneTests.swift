import Dispatch
import Foundation
import Synchronization
import Testing

@testable import GalleryIO

/// A lane's jobs that wait for their time: kept by the lane's own threads, run once due at their priority, never
/// before. Nothing here asserts how soon a job runs, only that it runs, in what order, and not early.
@Suite struct JobLaneTests {
    /// Long enough for any loaded machine; only reached when a test fails.
    private static var patience: DispatchTime { .now() + 30 }

    @Test func delayedJobsRunInTheOrderTheyFallDueAndNotBefore() {
        let lane = JobLane(name: "test", threads: 1)
        let runs = Mutex<[(name: String, lateness: Duration)]>([])
        let finished = DispatchSemaphore(value: 0)
        let delays: [(String, Duration)] = [
            ("third", .milliseconds(90)), ("first", .milliseconds(10)), ("fourth", .milliseconds(120)),
            ("second", .milliseconds(40)),
        ]
        for (name, delay) in delays {
            let due = ContinuousClock.now.advanced(by: delay)
            lane.submit(.background, after: delay, cancellation: nil) {
                runs.withLock { $0.append((name, due.duration(to: .now))) }
                finished.signal()
            }
        }
        for _ in delays { #expect(finished.wait(timeout: Self.patience) == .success) }
        let seen = runs.withLock { $0 }
        #expect(seen.map(\.name) == ["first", "second", "third", "fourth"])
        #expect(seen.allSatisfy { $0.lateness >= .zero })
    }

    @Test func aJobThatFellDueTakesItsPlaceByPriorityAmongTheReadyOnes() {
        let lane = JobLane(name: "test", threads: 1)
        let blocker = LaneBlocker(lane)
        let order = Mutex<[String]>([])
        let finished = DispatchSemaphore(value: 0)
        func submit(_ name: String, _ priority: JobPriority, after delay: Duration = .zero) {
            lane.submit(priority, after: delay, cancellation: nil) {
                order.withLock { $0.append(name) }
                finished.signal()
            }
        }
        let delay = Duration.milliseconds(20)
        let due = ContinuousClock.now.advanced(by: delay)
        submit("background, due", .background, after: delay)
        submit("viewer, due", .viewer, after: delay)
        submit("background, ready", .background)
        submit("visible, ready", .visible)
        submit("viewer, not due", .viewer, after: .seconds(3600))
        while ContinuousClock.now < due { Thread.sleep(forTimeInterval: 0.005) }
        // Submitted after the delayed jobs fell due: queued behind the one of its class.
        submit("background, after", .background)
        blocker.release()
        for _ in 0..<5 { #expect(finished.wait(timeout: Self.patience) == .success) }
        #expect(
            order.withLock { $0 } == [
                "viewer, due", "visible, ready", "background, ready", "background, due", "background, after",
            ])
    }

    @Test func anIdleLaneWakesForADelayedJobSubmittedAfterItWentIdle() {
        let lane = JobLane(name: "test", threads: 1)
        let finished = DispatchSemaphore(value: 0)
        lane.submit(.visible, after: .zero, cancellation: nil) { finished.signal() }
        #expect(finished.wait(timeout: Self.patience) == .success)
        // Idle with nothing due: it waits for a wakeup alone.
        waitUntilIdle(lane)
        lane.submit(.visible, after: .milliseconds(10), cancellation: nil) { finished.signal() }
        #expect(finished.wait(timeout: Self.patience) == .success)
    }

    @Test func anIdleLaneWaitingForALaterJobTakesUpAnEarlierOne() {
        let lane = JobLane(name: "test", threads: 1)
        let finished = DispatchSemaphore(value: 0)
        lane.submit(.visible, after: .seconds(3600), cancellation: nil) { Issue.record("ran an hour early") }
        waitUntilIdle(lane)
        lane.submit(.visible, after: .milliseconds(10), cancellation: nil) { finished.signal() }
        #expect(finished.wait(timeout: Self.patience) == .success)
    }

    @Test func aBusyLaneRunsADelayedJobOnceItsJobEnds() {
        let lane = JobLane(name: "test", threads: 1)
        let blocker = LaneBlocker(lane)
        let finished = DispatchSemaphore(value: 0)
        lane.submit(.visible, after: .milliseconds(10), cancellation: nil) { finished.signal() }
        blocker.release()
        #expect(finished.wait(timeout: Self.patience) == .success)
    }

    @Test func aDelayedJobCancelledBeforeItIsDueNeverRuns() {
        let lane = JobLane(name: "test", threads: 1)
        let ran = Mutex<[String]>([])
        let finished = DispatchSemaphore(value: 0)
        let cancelled = CancellationToken()
        lane.submit(.visible, after: .milliseconds(20), cancellation: cancelled) {
            ran.withLock { $0.append("cancelled") }
        }
        let blocker = LaneBlocker(lane)
        lane.submit(.visible, after: .milliseconds(40), cancellation: CancellationToken()) {
            ran.withLock { $0.append("kept") }
            finished.signal()
        }
        cancelled.cancel()
        // Due after the cancelled one: once it has run, the cancelled one had its turn.
        blocker.release()
        #expect(finished.wait(timeout: Self.patience) == .success)
        #expect(ran.withLock { $0 } == ["kept"])
    }

    /// Several threads hand a lane of three threads jobs at once, about half of them delayed by a few milliseconds,
    /// in bursts, so that threads keep going idle and timing out while others wake them: a wakeup lost or an idle
    /// thread counted twice leaves a job unrun (or runs one twice).
    @Test func manyDelayedAndReadyJobsFromSeveralThreadsEachRunOnce() {
        let lane = JobLane(name: "test", threads: 3)
        let jobCount = 2000
        let submitters = 4
        let runs = Mutex([Int](repeating: 0, count: jobCount))
        let early = Mutex(0)
        let finished = DispatchSemaphore(value: 0)
        let priorities: [JobPriority] = [.viewer, .visible, .drop(1), .prefetch, .background]
        DispatchQueue.concurrentPerform(iterations: submitters) { submitter in
            for job in stride(from: submitter, to: jobCount, by: submitters) {
                let delay: Duration = Bool.random() ? .zero : .microseconds(Int.random(in: 1...4000))
                let due = ContinuousClock.now.advanced(by: delay)
                lane.submit(priorities.randomElement()!, after: delay, cancellation: nil) {
                    if ContinuousClock.now < due { early.withLock { $0 += 1 } }
                    runs.withLock { $0[job] += 1 }
                    finished.signal()
                }
                if job % 50 < submitters { Thread.sleep(forTimeInterval: 0.002) }
            }
        }
        // One deadline for them all: a lane that lost a wakeup fails the test in seconds, not once a job.
        let patience = Self.patience
        #expect((0..<jobCount).allSatisfy { _ in finished.wait(timeout: patience) == .success })
        let counts = runs.withLock { $0 }
        #expect(counts.count { $0 == 0 } == 0, "jobs never run")
        #expect(counts.count { $0 > 1 } == 0, "jobs run twice")
        #expect(early.withLock { $0 } == 0)
    }

    private func waitUntilIdle(_ lane: JobLane) {
        let deadline = ContinuousClock.now.advanced(by: .seconds(30))
        while lane.idleThreadCount == 0 && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.005) }
        #expect(lane.idleThreadCount > 0)
    }
}

/// A job that holds a lane's only thread until released: what falls due meanwhile waits for it.
private struct LaneBlocker {
    private let released = DispatchSemaphore(value: 0)

    init(_ lane: JobLane) {
        let started = DispatchSemaphore(value: 0)
        lane.submit(.viewer, after: .zero, cancellation: nil) { [released] in
            started.signal()
            released.wait()
        }
        started.wait()
    }

    func release() { released.signal() }
}
