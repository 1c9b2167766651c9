import CGtk
import CShim
import Foundation
import Synchronization

/// Hops onto the GTK main loop. Workers use it to hand results back; nothing else touches widgets.
public enum MainContext {
    public typealias Work = @Sendable @MainActor () -> Void

    /// Runs `work` on the main loop soon, after what was posted before it; callable from any thread.
    public static func post(_ work: @escaping Work) {
        Posted.queue.append(work)
    }

    /// Runs `work` once after `milliseconds`; returns the source id for `cancel`.
    @discardableResult
    public static func after(milliseconds: UInt32, _ work: @escaping Work) -> UInt32 {
        let box = CallbackBox<Work>(work)
        return g_timeout_add_full(G_PRIORITY_DEFAULT, milliseconds, { userData in
            let box = CallbackBox<Work>.from(userData: userData)
            onMain { box.handler() }
            return gboolean(G_SOURCE_REMOVE)
        }, box.retainedPointer, CallbackBox<Work>.destroyNotify)
    }

    public static func cancel(_ source: UInt32) {
        if source != 0 { g_source_remove(source) }
    }

    /// For benchmarks: appends "stall <seconds since start> <milliseconds> <ran> <waited>" to `file`
    /// whenever the main loop went more than `threshold` ms without running a high-priority 1 ms
    /// timer. Of that time, `ran` ms the thread ran (its own work) and `waited` ms it was ready but
    /// waited for a core (the scheduler's doing); both are left out where Linux does not tell them.
    public static func logStalls(to file: FileHandle, over threshold: Double = 8) {
        let start = g_get_monotonic_time()
        var last = start
        let times = ThreadTimes()
        var lastTimes = times?.read()
        // The clock the times count from (CLOCK_MONOTONIC), so other tools' times line up.
        file.write(Data(String(format: "start %.6f\n", Double(start) / 1_000_000).utf8))
        let box = CallbackBox<@MainActor () -> Void> {
            let now = g_get_monotonic_time()
            let nowTimes = times?.read()
            let gap = Double(now - last) / 1000 - 1
            defer { last = now; lastTimes = nowTimes }
            guard gap > threshold else { return }
            var line = String(format: "stall %.3f %.1f", Double(now - start) / 1_000_000, gap)
            if let before = lastTimes, let after = nowTimes {
                line += String(format: " %.1f %.1f", after.ranMilliseconds - before.ranMilliseconds,
                               after.waitedMilliseconds - before.waitedMilliseconds)
            }
            file.write(Data((line + "\n").utf8))
        }
        g_timeout_add_full(G_PRIORITY_HIGH, 1, { userData in
            let box = CallbackBox<@MainActor () -> Void>.from(userData: userData)
            onMain { box.handler() }
            return gboolean(G_SOURCE_CONTINUE)
        }, box.retainedPointer, CallbackBox<@MainActor () -> Void>.destroyNotify)
    }

    /// Monotonic time in microseconds, as the frame clock counts it.
    public static var monotonicMicroseconds: Int { g_get_monotonic_time() }
}

/// How long the thread that made it has run, and waited for a core while ready to run.
private final class ThreadTimes {
    struct Reading {
        var ranMilliseconds: Double
        var waitedMilliseconds: Double
    }

    private let descriptor: Int32

    /// Nil where the system does not tell.
    init?() {
        descriptor = cshim_thread_times_open()
        if descriptor < 0 { return nil }
    }

    deinit { close(descriptor) }

    func read() -> Reading? {
        var ran: guint64 = 0
        var waited: guint64 = 0
        guard cshim_thread_times_read(descriptor, &ran, &waited) != 0 else { return nil }
        return Reading(ranMilliseconds: Double(ran) / 1_000_000, waitedMilliseconds: Double(waited) / 1_000_000)
    }
}

/// The thread that calls it.
public enum CurrentThread {
    /// Names it where top, perf and /proc see it (Foundation's `Thread.name` did not always
    /// reach the system: a pool's new thread kept the name of the thread that started it).
    public static func name(_ name: String) {
        cshim_name_thread(name)
    }

    /// Makes it yield the cores to the GUI thread (a nice value `steps` above the process's, not
    /// above that of the thread that started it): decodes and transfers then cannot delay a frame.
    public static func lowerPriority(by steps: Int) {
        cshim_lower_thread_priority(gint(steps))
    }

    /// Asks the scheduler for short time slices (0.3 ms; the default here is 1.4 ms) for this
    /// thread alone: the earlier deadline lets the GUI thread take a core as soon as it wakes,
    /// where it waited up to a whole slice behind whichever thread ran. Threads started later
    /// keep the default. Kernels before EEVDF's slice requests (6.12) ignore it.
    public static func requestShortTimeSlices() {
        cshim_request_time_slice(300_000)
    }

    /// Gives every thread started after this call a heap of its own, so the GUI thread never
    /// waits on a worker for memory. Call before starting threads.
    public static func giveEachThreadItsOwnHeap() {
        cshim_give_each_thread_its_own_heap()
    }
}

/// What workers hand to the main loop, run there in the order it was handed over. Handing over
/// takes no lock at all, neither GLib's nor ours: a worker on a low priority preempted while it
/// held one kept the window's thread waiting for as long as the cores were busy (GLib's context
/// lock up to 15 ms; a mutex of ours 40-100 ms during a drop, since Linux lends a waiter's
/// priority to a holder only for real-time threads). Workers push onto a lock-free stack and wake
/// the main loop through an eventfd it polls; the main loop takes the whole stack at once.
private final class Posted: Sendable {
    static let queue = Posted()

    /// `next` is written only before the node is published, by the one thread that pushes it.
    private final class Node: @unchecked Sendable {
        let work: MainContext.Work
        var next: Unmanaged<Node>?
        init(_ work: @escaping MainContext.Work) { self.work = work }
    }

    /// The newest work first; nil when nothing waits.
    private let newest = Atomic<Unmanaged<Node>?>(nil)
    private let wakeup: gint
    /// Taken from the stack but not run yet (the previous turn ran out of time); main loop only.
    @MainActor private static var leftOver: ArraySlice<MainContext.Work> = []

    private init() {
        wakeup = cshim_wakeup_new()
        g_unix_fd_add_full(G_PRIORITY_DEFAULT_IDLE, wakeup, G_IO_IN, { _, _, _ in
            onMain { Posted.queue.runSome() }
            return gboolean(G_SOURCE_CONTINUE)
        }, nil, nil)
    }

    func append(_ work: @escaping MainContext.Work) {
        let node = Unmanaged.passRetained(Node(work))
        var head = newest.load(ordering: .relaxed)
        while true {
            node._withUnsafeGuaranteedRef { $0.next = head }
            let (exchanged, current) = newest.weakCompareExchange(
                expected: head, desired: node, successOrdering: .releasing, failureOrdering: .relaxed)
            if exchanged { break }
            head = current
        }
        // The first onto an empty stack wakes the main loop; the others find it awake.
        if head == nil { cshim_wakeup_signal(wakeup) }
    }

    /// Runs queued work for up to 4 ms, so a frame never waits behind a long queue; what is left
    /// runs at the loop's next turn.
    @MainActor
    func runSome() {
        // Cleared before the stack is taken: work pushed after this signals again.
        cshim_wakeup_clear(wakeup)
        var taken: [MainContext.Work] = []
        var node = newest.exchange(nil, ordering: .acquiring)
        while let current = node {
            taken.append(current.takeUnretainedValue().work)
            node = current.takeUnretainedValue().next
            current.release()
        }
        var batch = Self.leftOver + taken.reversed()
        let deadline = g_get_monotonic_time() + 4000
        while let work = batch.popFirst() {
            work()
            if g_get_monotonic_time() >= deadline, !batch.isEmpty { break }
        }
        Self.leftOver = batch
        if !batch.isEmpty { cshim_wakeup_signal(wakeup) }
    }
}
