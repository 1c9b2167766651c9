import Foundation
import GtkKit
import Synchronization

/// Runs the app's background work, as Eye of GNOME's job scheduler and gThumb's shared I/O factory
/// do: two lanes with a few threads each, every job queued by its priority, a cancelled job skipped
/// before it starts, and one way back to the GTK thread (`MainContext.post`).
///
/// - `io`: reading and writing files, listing folders, keeping downloads; the threads mostly wait
///   on the disk. Downloads themselves wait on no thread (`HTTPClient` runs them all on one).
/// - `cpu`: decoding; every core but one, so the GTK thread always finds one.
public final class JobScheduler: Sendable {
    public enum Lane: Sendable {
        case io
        case cpu
    }

    private let ioLane: JobLane
    private let cpuLane: JobLane

    /// - Parameters:
    ///   - ioThreads: threads that wait on the disk.
    ///   - cpuThreads: threads that decode; defaults to every core but one.
    public init(ioThreads: Int = 4, cpuThreads: Int = max(ProcessInfo.processInfo.activeProcessorCount - 1, 1)) {
        ioLane = JobLane(name: "io", threads: ioThreads)
        cpuLane = JobLane(name: "decode", threads: cpuThreads)
    }

    /// Queues `work` on `lane` behind every job of a higher priority; it is skipped if `cancellation`
    /// is cancelled before it starts. Callable from any thread.
    public func submit(
        _ lane: Lane, _ priority: JobPriority, cancellation: CancellationToken? = nil,
        _ work: @escaping @Sendable () -> Void
    ) {
        switch lane {
        case .io: ioLane.submit(priority, cancellation: cancellation, work)
        case .cpu: cpuLane.submit(priority, cancellation: cancellation, work)
        }
    }

    /// Runs `work` on `lane`, then hands its result to `then` on the GTK thread, unless `cancellation`
    /// was cancelled meanwhile.
    public func run<Result: Sendable>(
        _ lane: Lane, _ priority: JobPriority, cancellation: CancellationToken? = nil,
        _ work: @escaping @Sendable () -> Result, then: @escaping @Sendable @MainActor (Result) -> Void
    ) {
        submit(lane, priority, cancellation: cancellation) {
            let result = work()
            guard cancellation?.isCancelled != true else { return }
            MainContext.post { then(result) }
        }
    }
}
