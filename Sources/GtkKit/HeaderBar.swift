import CGtk
import GLibKit

public final class HeaderBar: Container {
    public init(title: String) {
        super.init(owning: gtk_header_bar_new())
        gtk_header_bar_set_title(typed(), title)
        gtk_header_bar_set_show_close_button(typed(), 1)
    }

    /// Shown instead of the title (the window sets the title to its own whenever its title changes);
    /// nil shows the title again.
    public func setCustomTitle(_ widget: Widget?) { gtk_header_bar_set_custom_title(typed(), widget?.widget) }

    public func packStart(_ child: Widget) { gtk_header_bar_pack_start(typed(), child.widget) }
    public func packEnd(_ child: Widget) { gtk_header_bar_pack_end(typed(), child.widget) }
}
