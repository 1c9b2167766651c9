import CGtk
import GLibKit

/// Children laid out in rows that wrap to the width (a grid of thumbnails); it selects nothing itself,
/// and its own child wrappers take no focus, so that the keyboard goes from one child to the next.
public final class FlowBox: Container {
    public init(columnSpacing: UInt32, rowSpacing: UInt32) {
        super.init(owning: gtk_flow_box_new())
        gtk_flow_box_set_selection_mode(typed(), GTK_SELECTION_NONE)
        gtk_flow_box_set_homogeneous(typed(), 1)
        gtk_flow_box_set_column_spacing(typed(), columnSpacing)
        gtk_flow_box_set_row_spacing(typed(), rowSpacing)
        gtk_flow_box_set_max_children_per_line(typed(), 64)
        gtk_widget_set_valign(widget, GTK_ALIGN_START)
    }

    /// Adds `child` at the end.
    public func append(_ child: Widget) {
        gtk_flow_box_insert(typed(), child.widget, -1)
        if let wrapper = gtk_widget_get_parent(child.widget) { gtk_widget_set_can_focus(wrapper, 0) }
    }

    /// Shows or hides `child` with its place in the rows.
    public func setShown(_ child: Widget, _ shown: Bool) {
        guard let wrapper = gtk_widget_get_parent(child.widget) else { return }
        gtk_widget_set_visible(wrapper, shown ? 1 : 0)
    }
}
