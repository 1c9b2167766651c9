import CGtk
import CShim

/// A GtkPaned: two panes side by side with a handle between them.
public final class Paned: Container {
    public init(_ orientation: Orientation) { super.init(owning: gtk_paned_new(orientation.gtk)) }

    /// `resize`: the pane grows with the window; `shrink`: it may become smaller than it asks.
    public func pack1(_ child: Widget, resize: Bool, shrink: Bool) {
        gtk_paned_pack1(typed(), child.widget, resize ? 1 : 0, shrink ? 1 : 0)
    }

    public func pack2(_ child: Widget, resize: Bool, shrink: Bool) {
        gtk_paned_pack2(typed(), child.widget, resize ? 1 : 0, shrink ? 1 : 0)
    }

    public var position: Int {
        get { Int(gtk_paned_get_position(typed())) }
        set { gtk_paned_set_position(typed(), gint(newValue)) }
    }
}

/// A GtkListBox with single selection. Rows are the app's own `ListBoxRow` wrappers; the list
/// speaks of them by index.
public final class ListBox: Container {
    public init() {
        super.init(owning: gtk_list_box_new())
        gtk_list_box_set_selection_mode(typed(), GTK_SELECTION_BROWSE)
    }

    public func append(_ row: ListBoxRow) { gtk_container_add(typed(), row.widget) }

    public func remove(_ row: ListBoxRow) { gtk_container_remove(typed(), row.widget) }

    public var selectedIndex: Int? {
        guard let row = gtk_list_box_get_selected_row(typed()) else { return nil }
        return Int(gtk_list_box_row_get_index(row))
    }

    public func select(index: Int) {
        guard let row = gtk_list_box_get_row_at_index(typed(), gint(index)) else { return }
        gtk_list_box_select_row(typed(), row)
    }

    /// The index of the row at `y` of the list, if any.
    public func indexOfRow(atY y: Double) -> Int? {
        guard let row = gtk_list_box_get_row_at_y(typed(), gint(y)) else { return nil }
        return Int(gtk_list_box_row_get_index(row))
    }

    /// Draws the drop highlight around a row while a drag hovers it.
    public func highlightRow(index: Int) {
        guard let row = gtk_list_box_get_row_at_index(typed(), gint(index)) else { return }
        gtk_list_box_drag_highlight_row(typed(), row)
    }

    public func unhighlightRow() { gtk_list_box_drag_unhighlight_row(typed()) }

    /// The selected row changed (nil: none is selected).
    public func onRowSelected(_ handler: @escaping @MainActor (Int?) -> Void) {
        typealias Handler = @MainActor (Int?) -> Void
        let trampoline: @convention(c) (gpointer?, UnsafeMutablePointer<GtkListBoxRow>?, gpointer?) -> Void = { _, row, userData in
            let box = CallbackBox<Handler>.from(userData: userData)
            let index = row.map { Int(gtk_list_box_row_get_index($0)) }
            onMain { box.handler(index) }
        }
        connect(pointer, "row-selected", trampoline: unsafeBitCast(trampoline, to: GCallback.self), handler: handler as Handler)
    }
}

/// A row of a ListBox. GTK keeps the row while it is in the list; this wrapper holds a reference too.
public final class ListBoxRow: Container {
    public init() { super.init(owning: gtk_list_box_row_new()) }

    public func setChild(_ child: Widget) { gtk_container_add(typed(), child.widget) }
}

/// A one-line text entry.
public final class Entry: Widget {
    public init() { super.init(owning: gtk_entry_new()) }

    public var text: String {
        get { String(cString: gtk_entry_get_text(typed())) }
        set { gtk_entry_set_text(typed(), newValue) }
    }

    public var widthChars: Int {
        get { Int(gtk_entry_get_width_chars(typed())) }
        set { gtk_entry_set_width_chars(typed(), gint(newValue)) }
    }

    public func selectAll() { gtk_editable_select_region(OpaquePointer(pointer), 0, -1) }

    /// Enter was pressed.
    public func onActivate(_ handler: @escaping VoidHandler) { on("activate", handler) }

    /// The entry lost the keyboard focus.
    public func onFocusOut(_ handler: @escaping VoidHandler) {
        let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> gboolean = { _, _, userData in
            let box = CallbackBox<VoidHandler>.from(userData: userData)
            onMain { box.handler() }
            return 0
        }
        connect(pointer, "focus-out-event", trampoline: unsafeBitCast(trampoline, to: GCallback.self), handler: handler)
    }
}

/// Shows one of its named children at a time, without a transition.
public final class Stack: Container {
    public init() { super.init(owning: gtk_stack_new()) }

    public func addNamed(_ child: Widget, _ name: String) { gtk_stack_add_named(typed(), child.widget, name) }

    public var visibleChildName: String? {
        get { gtk_stack_get_visible_child_name(typed()).map { String(cString: $0) } }
        set { if let newValue { gtk_stack_set_visible_child_name(typed(), newValue) } }
    }
}

/// A button that stays pressed, bound to a stateful boolean action.
public final class ToggleButton: Widget {
    public init(iconName: String, tooltip: String) {
        super.init(owning: gtk_toggle_button_new())
        gtk_button_set_image(typed(), gtk_image_new_from_icon_name(iconName, GTK_ICON_SIZE_BUTTON))
        self.tooltip = tooltip
        accessibleName = tooltip
    }

    public func setAction(_ detailedName: String) {
        gtk_actionable_set_detailed_action_name(OpaquePointer(pointer), detailedName)
    }
}

public extension Label {
    /// Long text ends in "…" instead of widening its container.
    func ellipsize() { gtk_label_set_ellipsize(typed(), PANGO_ELLIPSIZE_END) }
}
