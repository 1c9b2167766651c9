import CGtk
import GLibKit

public final class Overlay: Container {
    public init() { super.init(owning: gtk_overlay_new()) }

    public func addOverlay(_ child: Widget) { gtk_overlay_add_overlay(typed(), child.widget) }

    /// Lets pointer events fall through the overlay child to what is below it.
    public func setPassThrough(_ child: Widget, _ passThrough: Bool) {
        gtk_overlay_set_overlay_pass_through(typed(), child.widget, passThrough ? 1 : 0)
    }
}
