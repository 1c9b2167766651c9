import CGtk
import GLibKit

/// A popover that shows a menu model, pointing at a spot of the widget it is relative to.
public final class Popover: Widget {
    private let model: MenuModel

    public init(menu: MenuModel, relativeTo widget: Widget) {
        model = menu
        super.init(
            owning: gtk_popover_new_from_model(widget.widget, menu.pointer.assumingMemoryBound(to: GMenuModel.self)))
    }

    public func pointTo(x: Double, y: Double) {
        var rect = GdkRectangle(x: gint(x), y: gint(y), width: 1, height: 1)
        gtk_popover_set_pointing_to(typed(), &rect)
    }

    public func popup() { gtk_popover_popup(typed()) }

    /// GTK keeps a popover, each of its items following its action, as long as the window it points into: a menu
    /// replaced by the next one goes.
    public func destroy() { gtk_widget_destroy(widget) }
}
