import CGLib
import CShim

/// Holds a Swift closure for a C callback. It is passed retained as the callback's user data and
/// released by the destroy notify GLib calls when the handler goes away. Its handlers are main-actor
/// closures, which are Sendable, so the box is too.
package final class CallbackBox<Handler: Sendable>: Sendable {
    package let handler: Handler
    package init(_ handler: Handler) { self.handler = handler }

    package var retainedPointer: gpointer { Unmanaged.passRetained(self).toOpaque() }

    package static func from(userData: gpointer?) -> CallbackBox<Handler> {
        Unmanaged<CallbackBox<Handler>>.fromOpaque(userData!).takeUnretainedValue()
    }

    /// The `GClosureNotify` that releases the box.
    package static var releaseNotify: GClosureNotify {
        { userData, _ in
            guard let userData else { return }
            Unmanaged<AnyObject>.fromOpaque(userData).release()
        }
    }

    /// The `GDestroyNotify` that releases the box.
    package static var destroyNotify: GDestroyNotify {
        { userData in
            guard let userData else { return }
            Unmanaged<AnyObject>.fromOpaque(userData).release()
        }
    }
}

/// Connects a handler whose C signature is `trampoline`'s; the closure box is released by its destroy notify.
@discardableResult
package func connect<Handler: Sendable>(_ instance: gpointer, _ signal: String, trampoline: GCallback, handler: Handler)
    -> gulong
{
    let box = CallbackBox(handler)
    return cshim_signal_connect(instance, signal, trampoline, box.retainedPointer, CallbackBox<Handler>.releaseNotify)
}

/// GTK calls every handler on the main thread, which is the main actor's.
@inline(__always)
package func onMain<T: Sendable>(_ body: @MainActor () -> T) -> T {
    MainActor.assumeIsolated { body() }
}

/// Runs `body` on the main actor with what a C callback wrapped there (GTK thread objects, which
/// are not Sendable): they reach the handler without leaving the thread.
@inline(__always)
package func onMain<First, each More, T: Sendable>(
    with first: First, _ more: repeat each More,
    run body: @MainActor (First, repeat each More) -> T
) -> T {
    let first = MainThreadBound(first)
    let more = MainThreadBound((repeat each more))
    return MainActor.assumeIsolated {
        let more = more.value
        return body(first.value, repeat each more)
    }
}
