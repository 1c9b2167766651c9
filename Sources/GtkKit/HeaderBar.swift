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

    /// The smaller line under the title; nil shows none.
    public var subtitle: String? {
        get { gtk_header_bar_get_subtitle(typed()).map { String(cString: $0) } }
        set { gtk_header_bar_set_subtitle(typed(), newValue) }
    }

    /// A dialog's header bar holds its Cancel and action buttons instead of a close button.
    public func setShowsCloseButton(_ shown: Bool) { gtk_header_bar_set_show_close_button(typed(), shown ? 1 : 0) }

    public func packStart(_ child: Widget) { gtk_header_bar_pack_start(typed(), child.widget) }
    public func packEnd(_ child: Widget) { gtk_header_bar_pack_end(typed(), child.widget) }
}
