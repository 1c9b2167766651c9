import CGtk
import GLibKit

/// A drag in progress (GdkDragContext), as a source or a destination sees it. GTK thread only.
public final class DragContext: Object, Equatable {
    init(_ context: OpaquePointer) { super.init(borrowing: UnsafeMutableRawPointer(context)) }

    var context: OpaquePointer { OpaquePointer(pointer) }

    public static func == (lhs: DragContext, rhs: DragContext) -> Bool { lhs.pointer == rhs.pointer }

    /// The targets (MIME types and X atoms) the source offers, in its order.
    public var offeredTargets: [String] {
        var names: [String] = []
        var node = gdk_drag_context_list_targets(context)
        while let current = node {
            let atom = OpaquePointer(current.pointee.data)
            if let name = gdk_atom_name(atom) {
                names.append(String(cString: name))
                g_free(name)
            }
            node = current.pointee.next
        }
        return names
    }

    /// What the source allows: copy and move, or copy alone while Ctrl is held.
    public var actions: DragActions { DragActions(rawValue: gdk_drag_context_get_actions(context).rawValue) }

    /// True when the drag started in a widget of this application.
    public var startedInThisApp: Bool { gtk_drag_get_source_widget(context) != nil }

    /// True when the drag started in `widget` (source and destination see different contexts
    /// of one drag, so this is how a destination recognises its own application's drags).
    public func started(in widget: Widget) -> Bool { gtk_drag_get_source_widget(context) == widget.widget }

    /// Tells the source what a drop here would do; an empty set refuses it.
    public func status(_ action: DragActions, time: UInt32) {
        gdk_drag_status(context, action.gdk, guint32(time))
    }

    public func finish(success: Bool, time: UInt32) {
        gtk_drag_finish(context, success ? 1 : 0, 0, guint32(time))
    }

    /// Asks the source for `target`; the answer comes to the widget's `drag-data-received`.
    public func requestData(_ target: String, for widget: Widget, time: UInt32) {
        gtk_drag_get_data(widget.widget, context, gdk_atom_intern(target, 0), guint32(time))
    }

    /// Uses `surface` as the image under the pointer, with the pointer at (hotX, hotY) in it.
    public func setIcon(_ surface: CairoSurface, hotX: Double, hotY: Double) {
        cairo_surface_set_device_offset(
            surface.surface, -hotX * Double(surface.pixelWidth) / surface.logicalWidth,
            -hotY * Double(surface.pixelHeight) / surface.logicalHeight)
        gtk_drag_set_icon_surface(context, surface.surface)
    }
}

/// A GObject of the GTK thread: GDK is not thread safe.
@available(*, unavailable)
extension DragContext: Sendable {}
