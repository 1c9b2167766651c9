import CGtk
import GLibKit

/// GTK's colour chooser, modal over a window: a palette of colours and an editor for any other; the answer comes once.
public final class ColorChooserDialog: Widget {
    public init(title: String, over parent: ApplicationWindow) {
        // GTK owns its toplevels: the wrapper holds a reference of its own.
        super.init(borrowing: gtk_color_chooser_dialog_new(title, parent.typed()))
        gtk_window_set_modal(typed(), 1)
        gtk_color_chooser_set_use_alpha(OpaquePointer(pointer), 0)
    }

    /// The colour chosen, or shown first.
    public var color: RGBA {
        get {
            var rgba = GdkRGBA()
            gtk_color_chooser_get_rgba(OpaquePointer(pointer), &rgba)
            return RGBA(red: rgba.red, green: rgba.green, blue: rgba.blue, alpha: rgba.alpha)
        }
        set {
            var rgba = GdkRGBA(red: newValue.red, green: newValue.green, blue: newValue.blue, alpha: newValue.alpha)
            gtk_color_chooser_set_rgba(OpaquePointer(pointer), &rgba)
        }
    }

    /// The user chose a colour (`accepted`), or cancelled or closed the dialog.
    public func onResponse(_ handler: @escaping @MainActor (_ accepted: Bool) -> Void) {
        typealias Handler = @MainActor (Bool) -> Void
        let trampoline: @convention(c) (gpointer?, gint, gpointer?) -> Void = { _, response, userData in
            let box = CallbackBox<Handler>.from(userData: userData)
            let accepted = response == GTK_RESPONSE_OK.rawValue
            onMain { box.handler(accepted) }
        }
        connect(
            pointer, "response", trampoline: unsafeBitCast(trampoline, to: GCallback.self), handler: handler as Handler)
    }

    public func present() { gtk_widget_show_all(widget) }

    public func destroy() { gtk_widget_destroy(widget) }
}
