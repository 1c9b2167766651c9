import Foundation
import GLibKit
import Synchronization

/// Runs the app's background work, as Eye of GNOME's job scheduler and gThumb's shared I/O factory
/// do: two lanes with few threads, every job queued by its priority (a delayed one once it is due), a
/// cancelled job skipped before it starts, and one way back to the GTK thread (`MainContext.post`). Few
/// threads is the point: the GTK thread finds a core when it wakes because little else runs at once.
///
/// - `io`: one thread, as Eye of GNOME's job thread: reading and writing files, listing folders,
///   saving. Downloads wait on no thread (`HTTPClient` runs them all on one).
/// - `cpu`: decoding, and keeping a download that is decoded next; every core but one.
public final class JobScheduler: Sendable {
    public enum Lane: Sendable {
        case io
        case cpu
    }

    private let ioLane: JobLane
    private let cpuLane: JobLane

    /// - Parameters:
    ///   - ioThreads: threads for file work.
    ///   - cpuThreads: threads that decode; defaults to every core but one.
    public init(ioThreads: Int = 1, cpuThreads: Int = max(ProcessInfo.processInfo.activeProcessorCount - 1, 1)) {
        ioLane = JobLane(name: "io", threads: ioThreads)
        cpuLane = JobLane(name: "decode", threads: cpuThreads)
    }

    /// Queues `work` on `lane` behind every job of a higher priority, once `delay` has passed (the lane's
    /// own threads keep it meanwhile); it is skipped if `cancellation` is cancelled before it starts.
    /// Callable from any thread.
    public func submit(
        _ lane: Lane, _ priority: JobPriority, after delay: Duration = .zero, cancellation: CancellationToken? = nil,
        _ work: @escaping @Sendable () -> Void
    ) {
        switch lane {
        case .io: ioLane.submit(priority, after: delay, cancellation: cancellation, work)
        case .cpu: cpuLane.submit(priority, after: delay, cancellation: cancellation, work)
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
