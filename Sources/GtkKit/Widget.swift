import CGtk
import GLibKit

/// A GtkWidget. Subclasses add what their widget type offers; all share the common API here.
open class Widget: Object {
    public var widget: UnsafeMutablePointer<GtkWidget> { typed() }

    /// The widget is being destroyed (its window closed): drop what refers to it.
    public func onDestroy(_ handler: @escaping VoidHandler) { on("destroy", handler) }
    /// The widget's style changed: the font or the theme chosen in the desktop's settings, or its state (backdrop, …).
    public func onStyleUpdated(_ handler: @escaping VoidHandler) { on("style-updated", handler) }

    public func showAll() { gtk_widget_show_all(widget) }
    /// Whether a `showAll` of a container holding it leaves it (and what it holds) as it is.
    public var isLeftOutOfShowAll: Bool {
        get { gtk_widget_get_no_show_all(widget) != 0 }
        set { gtk_widget_set_no_show_all(widget, newValue ? 1 : 0) }
    }
    public func hide() { gtk_widget_hide(widget) }
    public func queueDraw() { gtk_widget_queue_draw(widget) }
    /// Repaints only a rectangle (in the widget's coordinates, widened to whole pixels).
    public func queueDraw(x: Double, y: Double, width: Double, height: Double) {
        let left = (x - 1).rounded(.down)
        let top = (y - 1).rounded(.down)
        gtk_widget_queue_draw_area(
            widget, gint(left), gint(top), gint((x + width + 1).rounded(.up) - left),
            gint((y + height + 1).rounded(.up) - top))
    }
    /// Lays the widget out again at the next frame ("size-allocate" follows).
    public func queueResize() { gtk_widget_queue_resize(widget) }
    public func grabFocus() { gtk_widget_grab_focus(widget) }

    public var isVisible: Bool {
        get { gtk_widget_get_visible(widget) != 0 }
        set { gtk_widget_set_visible(widget, newValue ? 1 : 0) }
    }

    public var canFocus: Bool {
        get { gtk_widget_get_can_focus(widget) != 0 }
        set { gtk_widget_set_can_focus(widget, newValue ? 1 : 0) }
    }

    public var hasFocus: Bool { gtk_widget_has_focus(widget) != 0 }

    /// Makes the widget's window now (and its parents'), rather than when it is first shown: keys sent to a
    /// focused widget that has none yet are dropped.
    public func realize() { gtk_widget_realize(widget) }

    public func setExpand(horizontal: Bool, vertical: Bool) {
        gtk_widget_set_hexpand(widget, horizontal ? 1 : 0)
        gtk_widget_set_vexpand(widget, vertical ? 1 : 0)
    }

    public func setAlign(horizontal: Align, vertical: Align) {
        gtk_widget_set_halign(widget, horizontal.gtk)
        gtk_widget_set_valign(widget, vertical.gtk)
    }

    public func setSizeRequest(width: Int32, height: Int32) {
        gtk_widget_set_size_request(widget, width, height)
    }

    public var tooltip: String? {
        get {
            gtk_widget_get_tooltip_text(widget).map { text in
                defer { g_free(text) }
                return String(cString: text)
            }
        }
        // Setting a tooltip asks the X server where the pointer is: not for the same text again.
        set { if newValue != tooltip { gtk_widget_set_tooltip_text(widget, newValue) } }
    }

    /// A tooltip whose text is asked for only when it is about to show: changing what it would say
    /// costs nothing, where each new `tooltip` makes GTK ask the X server where the pointer is, a
    /// round trip. nil shows none.
    public func provideTooltip(_ text: @escaping @MainActor () -> String?) {
        typealias Handler = @MainActor () -> String?
        let trampoline: @convention(c) (gpointer?, gint, gint, gboolean, OpaquePointer?, gpointer?) -> gboolean = {
            _, _, _, _, tooltip, userData in
            let box = CallbackBox<Handler>.from(userData: userData)
            guard let tooltip, let text = onMain({ box.handler() }) else { return 0 }
            gtk_tooltip_set_text(tooltip, text)
            return 1
        }
        connect(
            pointer, "query-tooltip", trampoline: unsafeBitCast(trampoline, to: GCallback.self),
            handler: text as Handler)
        gtk_widget_set_has_tooltip(widget, 1)
    }

    /// What assistive technologies read after the name (by default, the tooltip's text).
    public var accessibleDescription: String {
        get { atk_object_get_description(gtk_widget_get_accessible(widget)).map { String(cString: $0) } ?? "" }
        set {
            if newValue != accessibleDescription {
                atk_object_set_description(gtk_widget_get_accessible(widget), newValue)
            }
        }
    }

    public func addStyleClass(_ name: String) {
        gtk_style_context_add_class(gtk_widget_get_style_context(widget), name)
    }
    public func removeStyleClass(_ name: String) {
        gtk_style_context_remove_class(gtk_widget_get_style_context(widget), name)
    }

    public func setStyleClass(_ name: String, _ enabled: Bool) {
        enabled ? addStyleClass(name) : removeStyleClass(name)
    }

    /// The name assistive technologies read.
    public var accessibleName: String {
        get { atk_object_get_name(gtk_widget_get_accessible(widget)).map { String(cString: $0) } ?? "" }
        set { if newValue != accessibleName { atk_object_set_name(gtk_widget_get_accessible(widget), newValue) } }
    }

    /// What assistive technologies are told the widget is (a drawing area says nothing by itself).
    public func setAccessibleRole(_ role: AccessibleRole) {
        atk_object_set_role(gtk_widget_get_accessible(widget), role.atk)
    }

    /// Where the pointer is, in this widget's coordinates (for a widget with its own window), or nil
    /// when the widget is not on screen.
    public var pointerPosition: (x: Double, y: Double)? {
        guard let window = gtk_widget_get_window(widget),
            let seat = gdk_display_get_default_seat(gtk_widget_get_display(widget)),
            let pointer = gdk_seat_get_pointer(seat)
        else { return nil }
        var x = 0.0
        var y = 0.0
        gdk_window_get_device_position_double(window, pointer, &x, &y, nil)
        return (x, y)
    }

    /// The modifier keys held now, asked of the display (a drop's events do not carry them).
    public var heldModifiers: Modifiers {
        guard let window = gtk_widget_get_window(widget),
            let seat = gdk_display_get_default_seat(gtk_widget_get_display(widget)),
            let pointer = gdk_seat_get_pointer(seat)
        else { return [] }
        var mask = GdkModifierType(0)
        gdk_window_get_device_position_double(window, pointer, nil, nil, &mask)
        return Modifiers(state: mask.rawValue)
    }

    /// The pointer's shape over this widget, by its CSS name ("grab", "grabbing"); nil for the default.
    public func setCursor(named name: String?) {
        guard let window = gtk_widget_get_window(widget) else { return }
        let cursor = name.flatMap { gdk_cursor_new_from_name(gtk_widget_get_display(widget), $0) }
        gdk_window_set_cursor(window, cursor)
        if let cursor { g_object_unref(UnsafeMutableRawPointer(cursor)) }
    }

    /// Whether a compositor draws this widget's screen: without one, transparent pixels of
    /// override-redirect windows (drag images) show as garbage, so they must be opaque.
    public var isComposited: Bool { gdk_screen_is_composited(gtk_widget_get_screen(widget)) != 0 }

    public var allocatedWidth: Int { Int(gtk_widget_get_allocated_width(widget)) }
    public var allocatedHeight: Int { Int(gtk_widget_get_allocated_height(widget)) }
    /// The size the widget asks for, its style and contents as they are now (shown or not).
    public var naturalSize: (width: Int, height: Int) {
        var width: gint = 0
        var height: gint = 0
        gtk_widget_get_preferred_width(widget, nil, &width)
        gtk_widget_get_preferred_height(widget, nil, &height)
        return (Int(width), Int(height))
    }
    public var scaleFactor: Int { Int(gtk_widget_get_scale_factor(widget)) }

    /// Translates a point from this widget's coordinates to `other`'s.
    public func translate(x: Double, y: Double, to other: Widget) -> (x: Double, y: Double)? {
        var outX: gint = 0
        var outY: gint = 0
        guard
            gtk_widget_translate_coordinates(widget, other.widget, gint(x.rounded()), gint(y.rounded()), &outX, &outY)
                != 0
        else { return nil }
        return (Double(outX), Double(outY))
    }

    /// The foreground colour the theme gives this widget (follows the dark variant).
    public var themeForeground: RGBA {
        var color = GdkRGBA()
        let context = gtk_widget_get_style_context(widget)
        gtk_style_context_get_color(context, gtk_style_context_get_state(context), &color)
        return RGBA(red: color.red, green: color.green, blue: color.blue, alpha: color.alpha)
    }

    /// A named colour from the theme (`theme_selected_bg_color`, …), if the theme defines it.
    public func themeColor(_ name: String) -> RGBA? {
        var color = GdkRGBA()
        guard gtk_style_context_lookup_color(gtk_widget_get_style_context(widget), name, &color) != 0 else {
            return nil
        }
        return RGBA(red: color.red, green: color.green, blue: color.blue, alpha: color.alpha)
    }

    public func addEvents(_ mask: GdkEventMask) { gtk_widget_add_events(widget, gint(mask.rawValue)) }

    public func onSizeAllocate(_ handler: @escaping @MainActor (_ width: Int, _ height: Int) -> Void) {
        typealias Handler = @MainActor (Int, Int) -> Void
        let trampoline: @convention(c) (gpointer?, UnsafeMutablePointer<GtkAllocation>?, gpointer?) -> Void = {
            _, allocation, userData in
            let box = CallbackBox<Handler>.from(userData: userData)
            let width = Int(allocation?.pointee.width ?? 0)
            let height = Int(allocation?.pointee.height ?? 0)
            onMain { box.handler(width, height) }
        }
        connect(
            pointer, "size-allocate", trampoline: unsafeBitCast(trampoline, to: GCallback.self),
            handler: handler as Handler)
    }

    /// A frame-clock driven callback (animations): return false to stop. `time` is in microseconds.
    @discardableResult
    public func addTickCallback(_ handler: @escaping @MainActor (_ frameTime: Int) -> Bool) -> UInt32 {
        typealias Handler = @MainActor (Int) -> Bool
        let box = CallbackBox<Handler>(handler)
        return gtk_widget_add_tick_callback(
            widget,
            { _, clock, userData in
                let box = CallbackBox<Handler>.from(userData: userData)
                let time = gdk_frame_clock_get_frame_time(clock)
                return onMain { box.handler(time) } ? sourceContinue : gboolean(G_SOURCE_REMOVE)
            }, box.retainedPointer, CallbackBox<Handler>.destroyNotify)
    }

    public func removeTickCallback(_ id: UInt32) { gtk_widget_remove_tick_callback(widget, guint(id)) }
}

extension Widget {
    /// Paints the widget's CSS background (a drawing area does not on its own).
    public func renderBackground(_ context: CairoContext) {
        gtk_render_background(
            gtk_widget_get_style_context(widget), context.cr, 0, 0,
            Double(allocatedWidth), Double(allocatedHeight))
    }
}
