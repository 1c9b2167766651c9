import CGtk
import CShim

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

    /// Monotonic time in microseconds, as the frame clock counts it.
    public static var monotonicMicroseconds: Int { g_get_monotonic_time() }
}
