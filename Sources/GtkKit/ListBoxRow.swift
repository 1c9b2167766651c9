import CGtk
import GLibKit

/// A row of a ListBox. GTK keeps the row while it is in the list; this wrapper holds a reference too.
public final class ListBoxRow: Container {
    public init() { super.init(owning: gtk_list_box_row_new()) }

    public func setChild(_ child: Widget) { gtk_container_add(typed(), child.widget) }
}
