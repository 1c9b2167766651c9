import CGtk
import GLibKit

/// A two-finger pinch on a touchpad or touchscreen. The widget does not keep its gestures alive:
/// the owner of this object does.
public final class PinchGesture: Object {
    public init(on widget: Widget) {
        super.init(owning: UnsafeMutableRawPointer(gtk_gesture_zoom_new(widget.widget)))
        gtk_event_controller_set_propagation_phase(OpaquePointer(pointer), GTK_PHASE_BUBBLE)
    }

    /// The pinch started; `scale` values are relative to this moment.
    public func onBegin(_ handler: @escaping VoidHandler) {
        let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, _, userData in
            let box = CallbackBox<VoidHandler>.from(userData: userData)
            onMain { box.handler() }
        }
        connect(pointer, "begin", trampoline: unsafeBitCast(trampoline, to: GCallback.self), handler: handler)
    }

    /// The fingers' distance relative to the start (2 = twice as far apart).
    public func onScaleChanged(_ handler: @escaping @MainActor (Double) -> Void) {
        typealias Handler = @MainActor (Double) -> Void
        let trampoline: @convention(c) (gpointer?, gdouble, gpointer?) -> Void = { _, scale, userData in
            let box = CallbackBox<Handler>.from(userData: userData)
            onMain { box.handler(scale) }
        }
        connect(
            pointer, "scale-changed", trampoline: unsafeBitCast(trampoline, to: GCallback.self),
            handler: handler as Handler)
    }

    /// The point between the fingers, in the widget's coordinates (zooming keeps it still).
    public var center: (x: Double, y: Double)? {
        var x = 0.0
        var y = 0.0
        guard gtk_gesture_get_bounding_box_center(OpaquePointer(pointer), &x, &y) != 0 else { return nil }
        return (x, y)
    }
}
