import CGtk
import GLibKit

/// A GSimpleAction that can be enabled and disabled (undo when there is nothing to undo).
public final class Action: Object {
    override init(owning pointer: gpointer) { super.init(owning: pointer) }

    convenience init(name: String, _ handler: @escaping VoidHandler) {
        self.init(owning: UnsafeMutableRawPointer(g_simple_action_new(name, nil)))
        // "activate" passes the action's parameter (a GVariant, NULL here) before the user data.
        let trampoline: @convention(c) (gpointer?, OpaquePointer?, gpointer?) -> Void = { _, _, userData in
            let box = CallbackBox<VoidHandler>.from(userData: userData)
            onMain { box.handler() }
        }
        connect(pointer, "activate", trampoline: unsafeBitCast(trampoline, to: GCallback.self), handler: handler)
    }

    public var enabled: Bool {
        get { g_action_get_enabled(OpaquePointer(pointer)) != 0 }
        set { g_simple_action_set_enabled(OpaquePointer(pointer), newValue ? 1 : 0) }
    }
}

extension Action {
    convenience init(name: String, stringHandler: @escaping @MainActor (String) -> Void) {
        let type = g_variant_type_new("s")
        defer { g_variant_type_free(type) }
        self.init(owning: UnsafeMutableRawPointer(g_simple_action_new(name, type)))
        typealias Handler = @MainActor (String) -> Void
        let trampoline: @convention(c) (gpointer?, OpaquePointer?, gpointer?) -> Void = { _, parameter, userData in
            let box = CallbackBox<Handler>.from(userData: userData)
            guard let parameter else { return }
            let value = String(cString: g_variant_get_string(parameter, nil))
            onMain { box.handler(value) }
        }
        connect(
            pointer, "activate", trampoline: unsafeBitCast(trampoline, to: GCallback.self),
            handler: stringHandler as Handler)
    }

    convenience init(name: String, toggleState: Bool, _ handler: @escaping @MainActor (Bool) -> Void) {
        self.init(
            owning: UnsafeMutableRawPointer(
                g_simple_action_new_stateful(name, nil, g_variant_new_boolean(toggleState ? 1 : 0))))
        typealias Handler = @MainActor (Bool) -> Void
        // No "activate" handler of our own: GLib then asks for the flipped state through "change-state".
        let trampoline: @convention(c) (gpointer?, OpaquePointer?, gpointer?) -> Void = { action, value, userData in
            let box = CallbackBox<Handler>.from(userData: userData)
            guard let value else { return }
            g_simple_action_set_state(OpaquePointer(action), value)
            let state = g_variant_get_boolean(value) != 0
            onMain { box.handler(state) }
        }
        connect(
            pointer, "change-state", trampoline: unsafeBitCast(trampoline, to: GCallback.self),
            handler: handler as Handler)
    }

    /// The boolean state of a toggle action.
    public var state: Bool {
        get {
            guard let value = g_action_get_state(OpaquePointer(pointer)) else { return false }
            defer { g_variant_unref(value) }
            return g_variant_get_boolean(value) != 0
        }
        set { g_simple_action_set_state(OpaquePointer(pointer), g_variant_new_boolean(newValue ? 1 : 0)) }
    }
}
