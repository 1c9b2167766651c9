import CGLib

/// A strong reference to a GObject, released in `deinit`.
open class Object {
    public let pointer: gpointer

    /// Takes over the reference a constructor returned (sinking it if it is floating).
    public init(owning pointer: gpointer) {
        self.pointer = pointer
        if g_object_is_floating(pointer) != 0 { g_object_ref_sink(pointer) }
    }

    /// Adds a reference to an object someone else owns (a signal's argument).
    public init(borrowing pointer: gpointer) {
        self.pointer = pointer
        g_object_ref_sink(pointer)
    }

    deinit { g_object_unref(pointer) }

    package func typed<T>(_: T.Type = T.self) -> UnsafeMutablePointer<T> {
        pointer.assumingMemoryBound(to: T.self)
    }
}

public typealias VoidHandler = @MainActor () -> Void

extension Object {
    /// A signal with no arguments besides the instance (`clicked`, `activate`, `value-changed`, …).
    @discardableResult
    public func on(_ signal: String, _ handler: @escaping VoidHandler) -> gulong {
        let trampoline: @convention(c) (gpointer?, gpointer?) -> Void = { _, userData in
            let box = CallbackBox<VoidHandler>.from(userData: userData)
            onMain { box.handler() }
        }
        return connect(pointer, signal, trampoline: unsafeBitCast(trampoline, to: GCallback.self), handler: handler)
    }
}
