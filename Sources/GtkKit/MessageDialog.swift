import CGtk
import CGtkShim
import GLibKit

/// A modal question over a window, with buttons the caller names; the answer comes once.
public final class MessageDialog: Widget {
    public enum Kind { case question, warning, error }

    public init(over parent: ApplicationWindow, kind: Kind, primary: String, secondary: String?) {
        let type =
            switch kind {
            case .question: GTK_MESSAGE_QUESTION
            case .warning: GTK_MESSAGE_WARNING
            case .error: GTK_MESSAGE_ERROR
            }
        // GTK owns its toplevels: the wrapper holds a reference of its own.
        super.init(borrowing: cshim_message_dialog_new(parent.typed(), type, primary, secondary))
    }

    /// The same question over a dialog window (Manage Tags), modal to it.
    public init(over parent: DialogWindow, kind: Kind, primary: String, secondary: String?) {
        let type = kind == .warning ? GTK_MESSAGE_WARNING : GTK_MESSAGE_ERROR
        super.init(borrowing: cshim_message_dialog_new(parent.typed(), type, primary, secondary))
    }

    /// Adds a button; `response` is what `onResponse` receives when it is pressed.
    public func addButton(_ label: String, response: Int32, destructive: Bool = false) {
        let button = gtk_dialog_add_button(typed(), label, response)
        if destructive, let button {
            gtk_style_context_add_class(gtk_widget_get_style_context(button), "destructive-action")
        }
    }

    public func setDefaultResponse(_ response: Int32) { gtk_dialog_set_default_response(typed(), response) }

    /// The user answered (or closed the dialog: `GTK_RESPONSE_DELETE_EVENT`, a negative number).
    public func onResponse(_ handler: @escaping @MainActor (Int32) -> Void) {
        typealias Handler = @MainActor (Int32) -> Void
        let trampoline: @convention(c) (gpointer?, gint, gpointer?) -> Void = { _, response, userData in
            let box = CallbackBox<Handler>.from(userData: userData)
            onMain { box.handler(Int32(response)) }
        }
        connect(
            pointer, "response", trampoline: unsafeBitCast(trampoline, to: GCallback.self), handler: handler as Handler)
    }

    public func present() { gtk_widget_show_all(widget) }

    public func destroy() { gtk_widget_destroy(widget) }
}
