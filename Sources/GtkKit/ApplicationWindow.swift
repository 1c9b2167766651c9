import CGtk
import GLibKit

public final class ApplicationWindow: Container {
    public init(application: Application, title: String) {
        // GTK owns its toplevels (they are never floating): this wrapper holds a reference of its own.
        super.init(borrowing: gtk_application_window_new(application.typed()))
        gtk_window_set_title(typed(), title)
    }

    public var title: String {
        get { gtk_window_get_title(typed()).map { String(cString: $0) } ?? "" }
        set { if newValue != title { gtk_window_set_title(typed(), newValue) } }
    }

    /// Whether this is the window the user works in (it has the keyboard).
    public var isActive: Bool { gtk_window_is_active(typed()) != 0 }

    /// The window became active, or stopped being active.
    public func onActiveChanged(_ handler: @escaping @MainActor (Bool) -> Void) {
        typealias Handler = @MainActor (Bool) -> Void
        let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { window, _, userData in
            let box = CallbackBox<Handler>.from(userData: userData)
            let active = gtk_window_is_active(window?.assumingMemoryBound(to: GtkWindow.self)) != 0
            onMain { box.handler(active) }
        }
        connect(
            pointer, "notify::is-active", trampoline: unsafeBitCast(trampoline, to: GCallback.self),
            handler: handler as Handler)
    }

    public func setTitlebar(_ titlebar: Widget) { gtk_window_set_titlebar(typed(), titlebar.widget) }
    public func setDefaultSize(width: Int32, height: Int32) { gtk_window_set_default_size(typed(), width, height) }
    /// The window's own size (without the frame), as the user left it; the last one it had when maximized.
    public var size: (width: Int, height: Int) {
        var width: gint = 0
        var height: gint = 0
        gtk_window_get_size(typed(), &width, &height)
        return (Int(width), Int(height))
    }
    public var isMaximized: Bool { gtk_window_is_maximized(typed()) != 0 }
    public func maximize() { gtk_window_maximize(typed()) }
    public func setIconName(_ name: String) { gtk_window_set_icon_name(typed(), name) }
    public func present() { gtk_window_present(typed()) }
    /// Closes the window as its close button would.
    public func close() { gtk_window_close(typed()) }

    /// Adds a window action (`win.NAME`).
    public func addAction(_ name: String, _ handler: @escaping VoidHandler) -> Action {
        let action = Action(name: name, handler)
        g_action_map_add_action(OpaquePointer(pointer), OpaquePointer(action.pointer))
        return action
    }
}

extension ApplicationWindow {
    /// The user asks to close the window; return true to keep it open.
    public func onCloseRequest(_ handler: @escaping @MainActor () -> Bool) {
        typealias Handler = @MainActor () -> Bool
        let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> gboolean = { _, _, userData in
            let box = CallbackBox<Handler>.from(userData: userData)
            return onMain { box.handler() } ? 1 : 0
        }
        connect(
            pointer, "delete-event", trampoline: unsafeBitCast(trampoline, to: GCallback.self),
            handler: handler as Handler)
    }
}

extension ApplicationWindow {
    /// A window action with a string parameter (`win.NAME` with a target, from a menu item).
    public func addAction(_ name: String, parameter: String.Type, _ handler: @escaping @MainActor (String) -> Void)
        -> Action
    {
        let action = Action(name: name, stringHandler: handler)
        g_action_map_add_action(OpaquePointer(pointer), OpaquePointer(action.pointer))
        return action
    }

    /// Activates a window action with a string parameter, as a menu item with that target would.
    public func activateAction(_ name: String, target: String) {
        g_action_group_activate_action(OpaquePointer(pointer), name, g_variant_new_string(target))
    }

    /// A window action with a boolean state (a check in menus, a pressed toggle button); activating
    /// it flips the state and calls `handler` with the new one.
    public func addToggleAction(_ name: String, state: Bool, _ handler: @escaping @MainActor (Bool) -> Void) -> Action {
        let action = Action(name: name, toggleState: state, handler)
        g_action_map_add_action(OpaquePointer(pointer), OpaquePointer(action.pointer))
        return action
    }
}
