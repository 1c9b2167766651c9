import CGtk
import GLibKit

/// Events a widget receives; handlers return true when they consumed the event.
extension Widget {
    public func onDraw(_ handler: @escaping @MainActor (CairoContext) -> Void) {
        typealias Handler = @MainActor (CairoContext) -> Void
        let trampoline: @convention(c) (gpointer?, OpaquePointer?, gpointer?) -> gboolean = { _, cr, userData in
            let box = CallbackBox<Handler>.from(userData: userData)
            guard let cr else { return 0 }
            let context = CairoContext(cr: cr)
            onMain(with: context) { context in box.handler(context) }
            return 0
        }
        connect(pointer, "draw", trampoline: unsafeBitCast(trampoline, to: GCallback.self), handler: handler as Handler)
    }

    public func onButtonPress(_ handler: @escaping @MainActor (ButtonEvent) -> Bool) {
        connectButton("button-press-event", handler)
    }
    public func onButtonRelease(_ handler: @escaping @MainActor (ButtonEvent) -> Bool) {
        connectButton("button-release-event", handler)
    }

    private func connectButton(_ signal: String, _ handler: @escaping @MainActor (ButtonEvent) -> Bool) {
        typealias Handler = @MainActor (ButtonEvent) -> Bool
        let trampoline: @convention(c) (gpointer?, UnsafeMutablePointer<GdkEventButton>?, gpointer?) -> gboolean = {
            instance, event, userData in
            let box = CallbackBox<Handler>.from(userData: userData)
            guard let event else { return 0 }
            let value = event.pointee
            let (x, y) = widgetCoordinates(of: value, in: instance?.assumingMemoryBound(to: GtkWidget.self))
            let button = ButtonEvent(
                x: x, y: y, button: value.button, modifiers: Modifiers(state: value.state),
                isDoubleClick: value.type == GDK_2BUTTON_PRESS, time: value.time)
            return onMain { box.handler(button) } ? 1 : 0
        }
        connect(pointer, signal, trampoline: unsafeBitCast(trampoline, to: GCallback.self), handler: handler as Handler)
    }

    public func onMotion(_ handler: @escaping @MainActor (MotionEvent) -> Bool) {
        typealias Handler = @MainActor (MotionEvent) -> Bool
        let trampoline: @convention(c) (gpointer?, UnsafeMutablePointer<GdkEventMotion>?, gpointer?) -> gboolean = {
            _, event, userData in
            let box = CallbackBox<Handler>.from(userData: userData)
            guard let event else { return 0 }
            let value = event.pointee
            let motion = MotionEvent(
                x: value.x, y: value.y, modifiers: Modifiers(state: value.state),
                buttonHeld: value.state & GDK_BUTTON1_MASK.rawValue != 0)
            return onMain { box.handler(motion) } ? 1 : 0
        }
        connect(
            pointer, "motion-notify-event", trampoline: unsafeBitCast(trampoline, to: GCallback.self),
            handler: handler as Handler)
    }

    public func onKeyPress(_ handler: @escaping @MainActor (KeyEvent) -> Bool) {
        typealias Handler = @MainActor (KeyEvent) -> Bool
        let trampoline: @convention(c) (gpointer?, UnsafeMutablePointer<GdkEventKey>?, gpointer?) -> gboolean = {
            _, event, userData in
            let box = CallbackBox<Handler>.from(userData: userData)
            guard let value = event?.pointee, let name = gdk_keyval_name(value.keyval) else { return 0 }
            let scalar = Unicode.Scalar(gdk_keyval_to_unicode(value.keyval)).flatMap { $0.value >= 0x20 ? $0 : nil }
            let key = KeyEvent(
                keyName: String(cString: name), modifiers: Modifiers(state: value.state),
                character: scalar.map(Character.init))
            return onMain { box.handler(key) } ? 1 : 0
        }
        connect(
            pointer, "key-press-event", trampoline: unsafeBitCast(trampoline, to: GCallback.self),
            handler: handler as Handler)
    }

    public func onScroll(_ handler: @escaping @MainActor (ScrollEvent) -> Bool) {
        typealias Handler = @MainActor (ScrollEvent) -> Bool
        let trampoline: @convention(c) (gpointer?, UnsafeMutablePointer<GdkEventScroll>?, gpointer?) -> gboolean = {
            _, event, userData in
            let box = CallbackBox<Handler>.from(userData: userData)
            guard let value = event?.pointee else { return 0 }
            let direction: ScrollEvent.Direction =
                switch value.direction {
                case GDK_SCROLL_UP: .up
                case GDK_SCROLL_DOWN: .down
                case GDK_SCROLL_SMOOTH: .smooth(dy: value.delta_y)
                default: .other
                }
            let scroll = ScrollEvent(
                direction: direction, modifiers: Modifiers(state: value.state), x: value.x, y: value.y)
            return onMain { box.handler(scroll) } ? 1 : 0
        }
        connect(
            pointer, "scroll-event", trampoline: unsafeBitCast(trampoline, to: GCallback.self),
            handler: handler as Handler)
    }
}

/// The pointer leaving a widget, and its keyboard focus coming and going.
extension Widget {
    /// The pointer left the widget (into another widget or window, or off it); needs `enablePointerAndKeyEvents`.
    public func onPointerLeave(_ handler: @escaping VoidHandler) {
        let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> gboolean = { _, _, userData in
            let box = CallbackBox<VoidHandler>.from(userData: userData)
            onMain { box.handler() }
            return 0
        }
        connect(
            pointer, "leave-notify-event", trampoline: unsafeBitCast(trampoline, to: GCallback.self), handler: handler)
    }

    /// The widget was mapped or unmapped: it is shown on screen or no longer (a stack shows another page).
    public func onMapChange(_ handler: @escaping VoidHandler) {
        let trampoline: @convention(c) (gpointer?, gpointer?) -> Void = { _, userData in
            let box = CallbackBox<VoidHandler>.from(userData: userData)
            onMain { box.handler() }
        }
        for signal in ["map", "unmap"] {
            connect(pointer, signal, trampoline: unsafeBitCast(trampoline, to: GCallback.self), handler: handler)
        }
    }

    /// Whether the widget is on screen: mapped, with its parents.
    public var isMapped: Bool { gtk_widget_get_mapped(widget) != 0 }

    /// The widget took the keyboard focus or lost it (another widget, another window).
    public func onFocusChange(_ handler: @escaping VoidHandler) {
        let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> gboolean = { _, _, userData in
            let box = CallbackBox<VoidHandler>.from(userData: userData)
            onMain { box.handler() }
            return 0
        }
        for signal in ["focus-in-event", "focus-out-event"] {
            connect(pointer, signal, trampoline: unsafeBitCast(trampoline, to: GCallback.self), handler: handler)
        }
    }
}

/// Which events a drawing widget wants; GTK delivers only those asked for.
extension Widget {
    public func enablePointerAndKeyEvents() {
        addEvents(
            GdkEventMask(
                GDK_BUTTON_PRESS_MASK.rawValue | GDK_BUTTON_RELEASE_MASK.rawValue
                    | GDK_POINTER_MOTION_MASK.rawValue | GDK_KEY_PRESS_MASK.rawValue
                    | GDK_SCROLL_MASK.rawValue | GDK_SMOOTH_SCROLL_MASK.rawValue | GDK_LEAVE_NOTIFY_MASK.rawValue))
        canFocus = true
    }

    /// A button's presses, releases and drags (a mouse's or a touch's) over the widget's own windows, for a drag
    /// source above it to see them: without, they go past those windows to the first one that asks for them.
    public func enableButtonEvents() {
        addEvents(
            GdkEventMask(
                GDK_BUTTON_PRESS_MASK.rawValue | GDK_BUTTON_RELEASE_MASK.rawValue | GDK_BUTTON_MOTION_MASK.rawValue
                    | GDK_TOUCH_MASK.rawValue))
    }
}

/// A button event's position in `widget`'s coordinates. GDK gives it relative to the window it
/// happened in, which is a descendant's own window when the event propagated up from there.
private func widgetCoordinates(of event: GdkEventButton, in widget: UnsafeMutablePointer<GtkWidget>?) -> (
    Double, Double
) {
    guard let widget, gtk_widget_get_has_window(widget) != 0, let own = gtk_widget_get_window(widget),
        let window = event.window, window != own
    else { return (event.x, event.y) }
    var originX: gint = 0
    var originY: gint = 0
    gdk_window_get_origin(own, &originX, &originY)
    return (event.x_root - Double(originX), event.y_root - Double(originY))
}
