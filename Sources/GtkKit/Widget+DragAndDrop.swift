import CGtk
import CShim
import Foundation

public struct DragActions: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let copy = DragActions(rawValue: GDK_ACTION_COPY.rawValue)
    public static let move = DragActions(rawValue: GDK_ACTION_MOVE.rawValue)

    var gdk: GdkDragAction { GdkDragAction(rawValue) }
}

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
        cairo_surface_set_device_offset(surface.surface, -hotX * Double(surface.pixelWidth) / surface.logicalWidth,
                                        -hotY * Double(surface.pixelHeight) / surface.logicalHeight)
        gtk_drag_set_icon_surface(context, surface.surface)
    }
}

/// A GObject of the GTK thread: GDK is not thread safe.
@available(*, unavailable)
extension DragContext: Sendable {}

/// The bytes of one target, as a drop receives them or a drag source fills them (during the callback).
public struct SelectionData {
    let data: OpaquePointer

    public var target: String {
        guard let name = gdk_atom_name(gtk_selection_data_get_target(data)) else { return "" }
        defer { g_free(name) }
        return String(cString: name)
    }

    /// The raw bytes, or nil when the source sent nothing (length < 0).
    public var bytes: [UInt8]? {
        let length = gtk_selection_data_get_length(data)
        guard length >= 0 else { return nil }
        guard length > 0, let start = gtk_selection_data_get_data(data) else { return [] }
        return Array(UnsafeBufferPointer(start: start, count: Int(length)))
    }

    public func set(_ bytes: [UInt8], as target: String) {
        bytes.withUnsafeBufferPointer { buffer in
            gtk_selection_data_set(data, gdk_atom_intern(target, 0), 8, buffer.baseAddress, gint(buffer.count))
        }
    }

    public func setURIs(_ uris: [String]) {
        var cStrings: [UnsafeMutablePointer<gchar>?] = uris.map { strdup($0) }
        cStrings.append(nil)
        defer { cStrings.forEach { free($0) } }
        cStrings.withUnsafeMutableBufferPointer { buffer in
            _ = gtk_selection_data_set_uris(data, buffer.baseAddress)
        }
    }

    public func setText(_ text: String) { gtk_selection_data_set_text(data, text, -1) }
}

/// Valid only during the callback that received it, on the GTK thread.
@available(*, unavailable)
extension SelectionData: Sendable {}

/// A list of targets, built once and handed to GTK for drag sources and destinations.
public final class TargetList {
    let list: OpaquePointer

    /// `sameApp` targets are offered only inside this application (GTK_TARGET_SAME_APP).
    public init(_ targets: [(name: String, sameApp: Bool)]) {
        list = gtk_target_list_new(nil, 0)
        for (info, target) in targets.enumerated() {
            gtk_target_list_add(list, gdk_atom_intern(target.name, 0),
                                target.sameApp ? guint(GTK_TARGET_SAME_APP.rawValue) : 0, guint(info))
        }
    }

    deinit { gtk_target_list_unref(list) }
}

public extension Widget {
    /// Accepts drops, the widget's handlers decide everything (no GTK defaults, no highlight).
    func makeDropDestination(targets: TargetList, actions: DragActions) {
        gtk_drag_dest_set(widget, GtkDestDefaults(0), nil, 0, actions.gdk)
        gtk_drag_dest_set_target_list(widget, targets.list)
    }

    /// Starts a drag with the primary button from this widget; called from the handler of the
    /// motion that passed the drag threshold, which is the event GTK is delivering. (x, y) is
    /// where the press began.
    func beginDrag(targets: TargetList, actions: DragActions, x: Double, y: Double) -> DragContext? {
        let motion = gtk_get_current_event()
        defer { if let motion { gdk_event_free(motion) } }
        let context = gtk_drag_begin_with_coordinates(widget, targets.list, actions.gdk, 1, motion, gint(x), gint(y))
        return context.map(DragContext.init)
    }

    /// Lets the primary button drag this widget, offering `targets` (a list row).
    func makeDragSource(targets: TargetList, actions: DragActions) {
        gtk_drag_source_set(widget, GDK_BUTTON1_MASK, nil, 0, actions.gdk)
        gtk_drag_source_set_target_list(widget, targets.list)
    }

    /// Draws the widget as it looks now into an image surface (a drag image of a row).
    func snapshotSurface() -> CairoSurface? {
        let width = Double(allocatedWidth)
        let height = Double(allocatedHeight)
        guard width > 0, height > 0 else { return nil }
        return CairoSurface.render(width: width, height: height, scale: scaleFactor) { context in
            gtk_widget_draw(widget, context.cr)
        }
    }

    /// Whether the pointer moved far enough from a press to start a drag.
    func dragThresholdPassed(from start: (x: Double, y: Double), to current: (x: Double, y: Double)) -> Bool {
        gtk_drag_check_threshold(widget, gint(start.x), gint(start.y), gint(current.x), gint(current.y)) != 0
    }

    func onDragBegin(_ handler: @escaping @MainActor (DragContext) -> Void) { connectContext("drag-begin", handler) }
    func onDragEnd(_ handler: @escaping @MainActor (DragContext) -> Void) { connectContext("drag-end", handler) }

    private func connectContext(_ signal: String, _ handler: @escaping @MainActor (DragContext) -> Void) {
        typealias Handler = @MainActor (DragContext) -> Void
        let trampoline: @convention(c) (gpointer?, OpaquePointer?, gpointer?) -> Void = { _, context, userData in
            let box = CallbackBox<Handler>.from(userData: userData)
            guard let context else { return }
            let drag = DragContext(context)
            onMain(with: drag) { drag in box.handler(drag) }
        }
        connect(pointer, signal, trampoline: unsafeBitCast(trampoline, to: GCallback.self), handler: handler as Handler)
    }

    /// The drag ended without a drop (Esc, or released where nothing accepts it). Return true to
    /// suppress GTK's slide-back animation.
    func onDragFailed(_ handler: @escaping @MainActor (DragContext, _ cancelledByUser: Bool) -> Bool) {
        typealias Handler = @MainActor (DragContext, Bool) -> Bool
        let trampoline: @convention(c) (gpointer?, OpaquePointer?, GtkDragResult, gpointer?) -> gboolean = { _, context, result, userData in
            let box = CallbackBox<Handler>.from(userData: userData)
            guard let context else { return 0 }
            let drag = DragContext(context)
            let cancelled = result == GTK_DRAG_RESULT_USER_CANCELLED
            return onMain(with: drag) { drag in box.handler(drag, cancelled) } ? 1 : 0
        }
        connect(pointer, "drag-failed", trampoline: unsafeBitCast(trampoline, to: GCallback.self), handler: handler as Handler)
    }

    func onDragDataGet(_ handler: @escaping @MainActor (DragContext, SelectionData) -> Void) {
        typealias Handler = @MainActor (DragContext, SelectionData) -> Void
        let trampoline: @convention(c) (gpointer?, OpaquePointer?, OpaquePointer?, guint, guint, gpointer?) -> Void = { _, context, data, _, _, userData in
            let box = CallbackBox<Handler>.from(userData: userData)
            guard let context, let data else { return }
            let drag = DragContext(context)
            let selection = SelectionData(data: data)
            onMain(with: drag, selection) { drag, selection in box.handler(drag, selection) }
        }
        connect(pointer, "drag-data-get", trampoline: unsafeBitCast(trampoline, to: GCallback.self), handler: handler as Handler)
    }

    /// Motion over a destination; return true when this widget handles the position (it must then call `status`).
    func onDragMotion(_ handler: @escaping @MainActor (DragContext, Double, Double, UInt32) -> Bool) { connectPosition("drag-motion", handler) }
    /// A drop; return true when this widget takes it (it must then call `finish` eventually).
    func onDragDrop(_ handler: @escaping @MainActor (DragContext, Double, Double, UInt32) -> Bool) { connectPosition("drag-drop", handler) }

    private func connectPosition(_ signal: String, _ handler: @escaping @MainActor (DragContext, Double, Double, UInt32) -> Bool) {
        typealias Handler = @MainActor (DragContext, Double, Double, UInt32) -> Bool
        let trampoline: @convention(c) (gpointer?, OpaquePointer?, gint, gint, guint, gpointer?) -> gboolean = { _, context, x, y, time, userData in
            let box = CallbackBox<Handler>.from(userData: userData)
            guard let context else { return 0 }
            let drag = DragContext(context)
            return onMain(with: drag) { drag in box.handler(drag, Double(x), Double(y), UInt32(time)) } ? 1 : 0
        }
        connect(pointer, signal, trampoline: unsafeBitCast(trampoline, to: GCallback.self), handler: handler as Handler)
    }

    func onDragLeave(_ handler: @escaping @MainActor (DragContext, UInt32) -> Void) {
        typealias Handler = @MainActor (DragContext, UInt32) -> Void
        let trampoline: @convention(c) (gpointer?, OpaquePointer?, guint, gpointer?) -> Void = { _, context, time, userData in
            let box = CallbackBox<Handler>.from(userData: userData)
            guard let context else { return }
            let drag = DragContext(context)
            onMain(with: drag) { drag in box.handler(drag, UInt32(time)) }
        }
        connect(pointer, "drag-leave", trampoline: unsafeBitCast(trampoline, to: GCallback.self), handler: handler as Handler)
    }

    func onDragDataReceived(_ handler: @escaping @MainActor (DragContext, Double, Double, SelectionData, UInt32) -> Void) {
        typealias Handler = @MainActor (DragContext, Double, Double, SelectionData, UInt32) -> Void
        let trampoline: @convention(c) (gpointer?, OpaquePointer?, gint, gint, OpaquePointer?, guint, guint, gpointer?) -> Void = {
            _, context, x, y, data, _, time, userData in
            let box = CallbackBox<Handler>.from(userData: userData)
            guard let context, let data else { return }
            let drag = DragContext(context)
            let selection = SelectionData(data: data)
            onMain(with: drag, selection) { drag, selection in
                box.handler(drag, Double(x), Double(y), selection, UInt32(time))
            }
        }
        connect(pointer, "drag-data-received", trampoline: unsafeBitCast(trampoline, to: GCallback.self), handler: handler as Handler)
    }
}
