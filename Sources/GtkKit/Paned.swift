import CGtk
import GLibKit

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
