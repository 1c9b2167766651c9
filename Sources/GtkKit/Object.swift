import CGtk
import CShim

/// A strong reference to a GObject: `ref` (sinking a floating reference) in `init`, `unref` in `deinit`.
open class Object {
    public let pointer: gpointer

    public init(taking pointer: gpointer) {
        self.pointer = pointer
        g_object_ref_sink(pointer)
    }

    deinit { g_object_unref(pointer) }

    func typed<T>(_: T.Type = T.self) -> UnsafeMutablePointer<T> {
        pointer.assumingMemoryBound(to: T.self)
    }
}
