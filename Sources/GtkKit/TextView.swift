import CGtk
import GLibKit

/// Several lines of text the user writes (a note), wrapped at word boundaries.
public final class TextView: Widget {
    public init() {
        super.init(owning: gtk_text_view_new())
        gtk_text_view_set_wrap_mode(typed(), GTK_WRAP_WORD_CHAR)
        gtk_text_view_set_accepts_tab(typed(), 0)
        // The text off the frame around it, as in an entry.
        gtk_text_view_set_left_margin(typed(), 6)
        gtk_text_view_set_right_margin(typed(), 6)
        gtk_text_view_set_top_margin(typed(), 6)
        gtk_text_view_set_bottom_margin(typed(), 6)
    }

    private var buffer: OpaquePointer? { OpaquePointer(gtk_text_view_get_buffer(typed())) }

    public var text: String {
        get {
            guard let buffer = gtk_text_view_get_buffer(typed()) else { return "" }
            var start = GtkTextIter()
            var end = GtkTextIter()
            gtk_text_buffer_get_bounds(buffer, &start, &end)
            guard let chars = gtk_text_buffer_get_text(buffer, &start, &end, 0) else { return "" }
            defer { g_free(chars) }
            return String(cString: chars)
        }
        set {
            guard newValue != text, let buffer = gtk_text_view_get_buffer(typed()) else { return }
            gtk_text_buffer_set_text(buffer, newValue, -1)
        }
    }

    /// Keyboard focus went elsewhere (another widget, another window).
    public func onFocusOut(_ handler: @escaping VoidHandler) {
        let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> gboolean = { _, _, userData in
            let box = CallbackBox<VoidHandler>.from(userData: userData)
            onMain { box.handler() }
            return 0
        }
        connect(pointer, "focus-out-event", trampoline: unsafeBitCast(trampoline, to: GCallback.self), handler: handler)
    }
}
