import CGtk
import CShim
import Foundation

/// Hops onto the GTK main loop. Workers use it to hand results back; nothing else touches widgets.
public enum MainContext {
    public typealias Work = @Sendable @MainActor () -> Void

    /// Runs `work` on the main loop soon; callable from any thread.
    public static func post(_ work: @escaping Work) {
        let box = CallbackBox<Work>(work)
        g_idle_add_full(G_PRIORITY_DEFAULT_IDLE, { userData in
            let box = CallbackBox<Work>.from(userData: userData)
            onMain { box.handler() }
            return gboolean(G_SOURCE_REMOVE)
        }, box.retainedPointer, CallbackBox<Work>.destroyNotify)
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
    /// Makes it yield the cores to the GUI thread (a higher nice value): decodes and transfers
    /// then cannot delay a frame.
    public static func lowerPriority(by steps: Int) {
        cshim_lower_thread_priority(gint(steps))
    }
}
