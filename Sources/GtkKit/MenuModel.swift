import CGtk
import CShim

/// A menu described as a GMenu: items name the action they activate, optionally with a string target
/// (`win.rename-gallery` with the gallery's id).
public final class MenuModel: Object {
    public init() { super.init(owning: UnsafeMutableRawPointer(g_menu_new())) }

    var menu: OpaquePointer { OpaquePointer(pointer) }

    public func append(label: String, action: String, target: String? = nil) {
        let item = g_menu_item_new(label, nil)
        if let target {
            g_menu_item_set_action_and_target_value(item, action, g_variant_new_string(target))
        } else {
            g_menu_item_set_action_and_target_value(item, action, nil)
        }
        g_menu_append_item(menu, item)
        g_object_unref(UnsafeMutableRawPointer(item))
    }

    /// A group of items, set apart from the others by separators.
    public func appendSection(_ section: MenuModel) {
        g_menu_append_section(menu, nil, section.pointer.assumingMemoryBound(to: GMenuModel.self))
    }

    /// An item that opens `submenu` (in a popover, a page that slides in).
    public func appendSubmenu(label: String, _ submenu: MenuModel) {
        g_menu_append_submenu(menu, label, submenu.pointer.assumingMemoryBound(to: GMenuModel.self))
    }
}

/// A popover that shows a menu model, pointing at a spot of the widget it is relative to.
public final class Popover: Widget {
    private let model: MenuModel

    public init(menu: MenuModel, relativeTo widget: Widget) {
        model = menu
        super.init(owning: gtk_popover_new_from_model(widget.widget, menu.pointer.assumingMemoryBound(to: GMenuModel.self)))
    }

    public func pointTo(x: Double, y: Double) {
        var rect = GdkRectangle(x: gint(x), y: gint(y), width: 1, height: 1)
        gtk_popover_set_pointing_to(typed(), &rect)
    }

    public func popup() { gtk_popover_popup(typed()) }
}

public extension ApplicationWindow {
    /// A window action with a string parameter (`win.NAME` with a target, from a menu item).
    func addAction(_ name: String, parameter: String.Type, _ handler: @escaping @MainActor (String) -> Void) -> Action {
        let action = Action(name: name, stringHandler: handler)
        g_action_map_add_action(OpaquePointer(pointer), OpaquePointer(action.pointer))
        return action
    }

    /// Activates a window action with a string parameter, as a menu item with that target would.
    func activateAction(_ name: String, target: String) {
        g_action_group_activate_action(OpaquePointer(pointer), name, g_variant_new_string(target))
    }

    /// A window action with a boolean state (a check in menus, a pressed toggle button); activating
    /// it flips the state and calls `handler` with the new one.
    func addToggleAction(_ name: String, state: Bool, _ handler: @escaping @MainActor (Bool) -> Void) -> Action {
        let action = Action(name: name, toggleState: state, handler)
        g_action_map_add_action(OpaquePointer(pointer), OpaquePointer(action.pointer))
        return action
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
        connect(pointer, "activate", trampoline: unsafeBitCast(trampoline, to: GCallback.self), handler: stringHandler as Handler)
    }

    convenience init(name: String, toggleState: Bool, _ handler: @escaping @MainActor (Bool) -> Void) {
        self.init(owning: UnsafeMutableRawPointer(g_simple_action_new_stateful(name, nil, g_variant_new_boolean(toggleState ? 1 : 0))))
        typealias Handler = @MainActor (Bool) -> Void
        // No "activate" handler of our own: GLib then asks for the flipped state through "change-state".
        let trampoline: @convention(c) (gpointer?, OpaquePointer?, gpointer?) -> Void = { action, value, userData in
            let box = CallbackBox<Handler>.from(userData: userData)
            guard let value else { return }
            g_simple_action_set_state(OpaquePointer(action), value)
            let state = g_variant_get_boolean(value) != 0
            onMain { box.handler(state) }
        }
        connect(pointer, "change-state", trampoline: unsafeBitCast(trampoline, to: GCallback.self), handler: handler as Handler)
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
