import CGtk
import GLibKit

extension Widget {
    /// Accepts drops, the widget's handlers decide everything (no GTK defaults, no highlight).
    public func makeDropDestination(targets: TargetList, actions: DragActions) {
        gtk_drag_dest_set(widget, GtkDestDefaults(0), nil, 0, actions.gdk)
        gtk_drag_dest_set_target_list(widget, targets.list)
    }

    /// Starts a drag with the primary button from this widget; called from the handler of the
    /// motion that passed the drag threshold, which is the event GTK is delivering. (x, y) is
    /// where the press began.
    public func beginDrag(targets: TargetList, actions: DragActions, x: Double, y: Double) -> DragContext? {
        let motion = gtk_get_current_event()
        defer { if let motion { gdk_event_free(motion) } }
        let context = gtk_drag_begin_with_coordinates(widget, targets.list, actions.gdk, 1, motion, gint(x), gint(y))
        return context.map(DragContext.init)
    }

    /// Lets the primary button drag this widget, offering `targets` (a list row).
    public func makeDragSource(targets: TargetList, actions: DragActions) {
        gtk_drag_source_set(widget, GDK_BUTTON1_MASK, nil, 0, actions.gdk)
        gtk_drag_source_set_target_list(widget, targets.list)
    }

    /// Draws the widget as it looks now into an image surface (a drag image of a row).
    public func snapshotSurface() -> CairoSurface? {
        let width = Double(allocatedWidth)
        let height = Double(allocatedHeight)
        guard width > 0, height > 0 else { return nil }
        return CairoSurface.render(width: width, height: height, scale: scaleFactor) { context in
            gtk_widget_draw(widget, context.cr)
        }
    }

    /// Whether the pointer moved far enough from a press to start a drag.
    public func dragThresholdPassed(from start: (x: Double, y: Double), to current: (x: Double, y: Double)) -> Bool {
        gtk_drag_check_threshold(widget, gint(start.x), gint(start.y), gint(current.x), gint(current.y)) != 0
    }

    public func onDragBegin(_ handler: @escaping @MainActor (DragContext) -> Void) {
        connectContext("drag-begin", handler)
    }
    public func onDragEnd(_ handler: @escaping @MainActor (DragContext) -> Void) { connectContext("drag-end", handler) }

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

    public func onDragDataGet(_ handler: @escaping @MainActor (DragContext, SelectionData) -> Void) {
        typealias Handler = @MainActor (DragContext, SelectionData) -> Void
        let trampoline: @convention(c) (gpointer?, OpaquePointer?, OpaquePointer?, guint, guint, gpointer?) -> Void = {
            _, context, data, _, _, userData in
            let box = CallbackBox<Handler>.from(userData: userData)
            guard let context, let data else { return }
            let drag = DragContext(context)
            let selection = SelectionData(data: data)
            onMain(with: drag, selection) { drag, selection in box.handler(drag, selection) }
        }
        connect(
            pointer, "drag-data-get", trampoline: unsafeBitCast(trampoline, to: GCallback.self),
            handler: handler as Handler)
    }

    /// Motion over a destination; return true when this widget handles the position (it must then call `status`).
    public func onDragMotion(_ handler: @escaping @MainActor (DragContext, Double, Double, UInt32) -> Bool) {
        connectPosition("drag-motion", handler)
    }
    /// A drop; return true when this widget takes it (it must then call `finish` eventually).
    public func onDragDrop(_ handler: @escaping @MainActor (DragContext, Double, Double, UInt32) -> Bool) {
        connectPosition("drag-drop", handler)
    }

    private func connectPosition(
        _ signal: String, _ handler: @escaping @MainActor (DragContext, Double, Double, UInt32) -> Bool
    ) {
        typealias Handler = @MainActor (DragContext, Double, Double, UInt32) -> Bool
        let trampoline: @convention(c) (gpointer?, OpaquePointer?, gint, gint, guint, gpointer?) -> gboolean = {
            _, context, x, y, time, userData in
            let box = CallbackBox<Handler>.from(userData: userData)
            guard let context else { return 0 }
            let drag = DragContext(context)
            return onMain(with: drag) { drag in box.handler(drag, Double(x), Double(y), UInt32(time)) } ? 1 : 0
        }
        connect(pointer, signal, trampoline: unsafeBitCast(trampoline, to: GCallback.self), handler: handler as Handler)
    }

    public func onDragLeave(_ handler: @escaping @MainActor (DragContext, UInt32) -> Void) {
        typealias Handler = @MainActor (DragContext, UInt32) -> Void
        let trampoline: @convention(c) (gpointer?, OpaquePointer?, guint, gpointer?) -> Void = {
            _, context, time, userData in
            let box = CallbackBox<Handler>.from(userData: userData)
            guard let context else { return }
            let drag = DragContext(context)
            onMain(with: drag) { drag in box.handler(drag, UInt32(time)) }
        }
        connect(
            pointer, "drag-leave", trampoline: unsafeBitCast(trampoline, to: GCallback.self),
            handler: handler as Handler)
    }

    public func onDragDataReceived(
        _ handler: @escaping @MainActor (DragContext, Double, Double, SelectionData, UInt32) -> Void
    ) {
        typealias Handler = @MainActor (DragContext, Double, Double, SelectionData, UInt32) -> Void
        let trampoline:
            @convention(c) (gpointer?, OpaquePointer?, gint, gint, OpaquePointer?, guint, guint, gpointer?) -> Void = {
                _, context, x, y, data, _, time, userData in
                let box = CallbackBox<Handler>.from(userData: userData)
                guard let context, let data else { return }
                let drag = DragContext(context)
                let selection = SelectionData(data: data)
                onMain(with: drag, selection) { drag, selection in
                    box.handler(drag, Double(x), Double(y), selection, UInt32(time))
                }
            }
        connect(
            pointer, "drag-data-received", trampoline: unsafeBitCast(trampoline, to: GCallback.self),
            handler: handler as Handler)
    }
}
