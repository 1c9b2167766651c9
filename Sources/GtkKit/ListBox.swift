import CGtk
import GLibKit

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
        let trampoline: @convention(c) (gpointer?, UnsafeMutablePointer<GtkListBoxRow>?, gpointer?) -> Void = {
            _, row, userData in
            let box = CallbackBox<Handler>.from(userData: userData)
            let index = row.map { Int(gtk_list_box_row_get_index($0)) }
            onMain { box.handler(index) }
        }
        connect(
            pointer, "row-selected", trampoline: unsafeBitCast(trampoline, to: GCallback.self),
            handler: handler as Handler)
    }
}
