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

    /// For benchmarks: appends "stall <seconds since start> <milliseconds>" to `file` whenever the
    /// main loop went more than `threshold` ms without running a high-priority 1 ms timer.
    public static func logStalls(to file: FileHandle, over threshold: Double = 8) {
        let start = g_get_monotonic_time()
        var last = start
        // The clock the times count from (CLOCK_MONOTONIC), so other tools' times line up.
        file.write(Data(String(format: "start %.6f\n", Double(start) / 1_000_000).utf8))
        let box = CallbackBox<@MainActor () -> Void> {
            let now = g_get_monotonic_time()
            let gap = Double(now - last) / 1000 - 1
            last = now
            if gap > threshold {
                let line = String(format: "stall %.3f %.1f\n", Double(now - start) / 1_000_000, gap)
                file.write(Data(line.utf8))
            }
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

/// The thread that calls it.
public enum CurrentThread {
    /// Makes it yield the cores to the GUI thread (a nice value `steps` above the process's, not
    /// above that of the thread that started it): decodes and transfers then cannot delay a frame.
    public static func lowerPriority(by steps: Int) {
        cshim_lower_thread_priority(gint(steps))
    }

    /// Makes it run only while a core has nothing else to do (`SCHED_IDLE`): for threads that
    /// mostly wait, so that many of them waking at once cannot outweigh the GUI thread.
    public static func runOnlyWhenIdle() {
        cshim_schedule_thread_when_idle()
    }

    /// Gives every thread started after this call a heap of its own, so the GUI thread never
    /// waits on a worker for memory. Call before starting threads.
    public static func giveEachThreadItsOwnHeap() {
        cshim_give_each_thread_its_own_heap()
    }
}

/// What workers hand to the main loop, run there in the order it was handed over. A worker takes
/// no lock of GLib's to hand work over: attaching a GLib source wakes the main loop while holding
/// the context's lock, so the woken window thread preempted the low-priority worker and then
/// waited on it, up to 15 ms while the cores were busy. Here the lock is ours, held for an append,
/// and the main loop is woken through an eventfd it polls.
private final class Posted: Sendable {
    static let queue = Posted()

    private struct Pending {
        var works: [MainContext.Work] = []
        var signalled = false
    }

    private let pending = Mutex(Pending())
    private let wakeup: gint

    private init() {
        wakeup = cshim_wakeup_new()
        g_unix_fd_add_full(G_PRIORITY_DEFAULT_IDLE, wakeup, G_IO_IN, { _, _, _ in
            onMain { Posted.queue.runSome() }
            return gboolean(G_SOURCE_CONTINUE)
        }, nil, nil)
    }

    func append(_ work: @escaping MainContext.Work) {
        let mustSignal = pending.withLock { pending in
            pending.works.append(work)
            defer { pending.signalled = true }
            return !pending.signalled
        }
        if mustSignal { cshim_wakeup_signal(wakeup) }
    }

    /// Runs queued work for up to 4 ms, so a frame never waits behind a long queue; what is left
    /// runs at the loop's next turn.
    @MainActor
    func runSome() {
        cshim_wakeup_clear(wakeup)
        let deadline = g_get_monotonic_time() + 4000
        var batch = pending.withLock { pending in
            defer { pending.works = [] }
            return pending.works[...]
        }
        while let work = batch.popFirst() {
            work()
            if g_get_monotonic_time() >= deadline, !batch.isEmpty { break }
        }
        let left = pending.withLock { pending in
            pending.works.insert(contentsOf: batch, at: 0)
            pending.signalled = !pending.works.isEmpty
            return pending.signalled
        }
        if left { cshim_wakeup_signal(wakeup) }
    }
}
