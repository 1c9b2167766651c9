import CGLib
import Glibc

/// The signals a session sends a program it ends (logout, shutdown, Ctrl+C in a terminal),
/// delivered on the main loop through GLib's unix signal sources, so the handler may save and quit.
public enum TerminationSignals {
    /// Calls `handler` on the main loop for each SIGTERM, SIGINT and SIGHUP.
    @MainActor public static func install(_ handler: @escaping VoidHandler) {
        for signal in [SIGTERM, SIGINT, SIGHUP] {
            let box = CallbackBox<VoidHandler>(handler)
            g_unix_signal_add_full(
                G_PRIORITY_HIGH, signal,
                { userData in
                    let box = CallbackBox<VoidHandler>.from(userData: userData)
                    onMain { box.handler() }
                    return sourceContinue
                }, box.retainedPointer, CallbackBox<VoidHandler>.destroyNotify)
        }
    }
}
