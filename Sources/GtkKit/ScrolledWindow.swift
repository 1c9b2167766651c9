import CGtk
import GLibKit

/// A scrolled window with the vertical adjustment exposed for autoscroll and visible-range queries.
public final class ScrolledWindow: Container {
    public init() {
        super.init(owning: gtk_scrolled_window_new(nil, nil))
        gtk_scrolled_window_set_policy(typed(), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
    }

    /// nil once the scrolled window is destroyed: its scrollbar, which holds the adjustment, is gone.
    private var adjustment: UnsafeMutablePointer<GtkAdjustment>? { gtk_scrolled_window_get_vadjustment(typed()) }

    public var scrollOffset: Double {
        get { adjustment.map { gtk_adjustment_get_value($0) } ?? 0 }
        set {
            guard let adjustment else { return }
            let upper = gtk_adjustment_get_upper(adjustment) - gtk_adjustment_get_page_size(adjustment)
            gtk_adjustment_set_value(adjustment, min(max(newValue, 0), max(upper, 0)))
        }
    }

    public var pageSize: Double { adjustment.map { gtk_adjustment_get_page_size($0) } ?? 0 }

    /// Scrolls as little as needed to show the range from `top` to `bottom` of the content.
    public func reveal(top: Double, bottom: Double) {
        guard let adjustment else { return }
        gtk_adjustment_clamp_page(adjustment, top, bottom)
    }

    public func onScrolled(_ handler: @escaping VoidHandler) {
        guard let adjustment else { return }
        let adjustmentObject = Object(borrowing: UnsafeMutableRawPointer(adjustment))
        adjustmentObject.on("value-changed", handler)
        adjustmentObject.on("changed", handler)
    }
}
