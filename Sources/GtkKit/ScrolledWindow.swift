import CGtk
import CShim

open class Container: Widget {
    public func add(_ child: Widget) { gtk_container_add(typed(), child.widget) }
    public func remove(_ child: Widget) { gtk_container_remove(typed(), child.widget) }
}

public enum Orientation {
    case horizontal, vertical
    var gtk: GtkOrientation { self == .horizontal ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL }
}

public final class Box: Container {
    public init(_ orientation: Orientation, spacing: Int32 = 0) {
        super.init(owning: gtk_box_new(orientation.gtk, spacing))
    }

    public func append(_ child: Widget, expand: Bool = false) {
        gtk_box_pack_start(typed(), child.widget, expand ? 1 : 0, expand ? 1 : 0, 0)
    }
}

public final class Label: Widget {
    public init(_ text: String = "") {
        super.init(owning: gtk_label_new(text))
    }

    public var text: String {
        get { String(cString: gtk_label_get_text(typed())) }
        // The same text again would still measure the window's widgets anew.
        set { if newValue != text { gtk_label_set_text(typed(), newValue) } }
    }

    public func setWrap(_ wrap: Bool, maxWidthChars: Int32 = -1) {
        gtk_label_set_line_wrap(typed(), wrap ? 1 : 0)
        gtk_label_set_max_width_chars(typed(), maxWidthChars)
        gtk_label_set_justify(typed(), GTK_JUSTIFY_CENTER)
    }

    public func setXAlign(_ value: Float) { gtk_label_set_xalign(typed(), value) }
}

public final class Image: Widget {
    public init(iconName: String, pixelSize: Int32) {
        super.init(owning: gtk_image_new_from_icon_name(iconName, GTK_ICON_SIZE_BUTTON))
        gtk_image_set_pixel_size(typed(), pixelSize)
    }
}

public final class Button: Widget {
    public init(label: String) {
        super.init(owning: gtk_button_new_with_mnemonic(label))
    }

    public init(iconName: String, tooltip: String) {
        super.init(owning: gtk_button_new_from_icon_name(iconName, GTK_ICON_SIZE_BUTTON))
        self.tooltip = tooltip
        accessibleName = tooltip
    }

    public var label: String {
        get { gtk_button_get_label(typed()).map { String(cString: $0) } ?? "" }
        set { gtk_button_set_label(typed(), newValue) }
    }

    /// Binds the button to a window or application action (`win.undo`).
    public func setAction(_ detailedName: String) {
        gtk_actionable_set_detailed_action_name(OpaquePointer(pointer), detailedName)
    }

    public func onClicked(_ handler: @escaping VoidHandler) { on("clicked", handler) }
}

/// A widget with its own input window that the app paints itself (the image viewer).
public final class DrawingArea: Widget {
    public init() { super.init(owning: gtk_drawing_area_new()) }
}

public final class Overlay: Container {
    public init() { super.init(owning: gtk_overlay_new()) }

    public func addOverlay(_ child: Widget) { gtk_overlay_add_overlay(typed(), child.widget) }

    /// Lets pointer events fall through the overlay child to what is below it.
    public func setPassThrough(_ child: Widget, _ passThrough: Bool) {
        gtk_overlay_set_overlay_pass_through(typed(), child.widget, passThrough ? 1 : 0)
    }
}

public final class Revealer: Container {
    /// `slidesDown`: the child slides in from the top edge (a banner) rather than the bottom (a toast).
    public init(transitionMilliseconds: UInt32 = 200, slidesDown: Bool = false) {
        super.init(owning: gtk_revealer_new())
        gtk_revealer_set_transition_type(typed(), slidesDown ? GTK_REVEALER_TRANSITION_TYPE_SLIDE_DOWN : GTK_REVEALER_TRANSITION_TYPE_SLIDE_UP)
        gtk_revealer_set_transition_duration(typed(), transitionMilliseconds)
    }

    public var revealed: Bool {
        get { gtk_revealer_get_reveal_child(typed()) != 0 }
        set { gtk_revealer_set_reveal_child(typed(), newValue ? 1 : 0) }
    }
}

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

public final class ProgressBar: Widget {
    public init() { super.init(owning: gtk_progress_bar_new()) }

    public var fraction: Double {
        get { gtk_progress_bar_get_fraction(typed()) }
        set { gtk_progress_bar_set_fraction(typed(), min(max(newValue, 0), 1)) }
    }
}
