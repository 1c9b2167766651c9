import CGtk
import GLibKit

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
