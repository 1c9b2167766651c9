import CGtk
import CShim

/// The signals a session sends a program it ends (logout, shutdown, Ctrl+C in a terminal),
/// delivered on the main loop through GLib's unix signal sources, so the handler may save and quit.
public enum TerminationSignals {
    /// Calls `handler` on the main loop for each SIGTERM, SIGINT and SIGHUP.
    @MainActor public static func install(_ handler: @escaping VoidHandler) {
        for signal in [SIGTERM, SIGINT, SIGHUP] {
            let box = CallbackBox<VoidHandler>(handler)
            g_unix_signal_add_full(G_PRIORITY_HIGH, signal, { userData in
                let box = CallbackBox<VoidHandler>.from(userData: userData)
                onMain { box.handler() }
                return gboolean(G_SOURCE_CONTINUE)
            }, box.retainedPointer, CallbackBox<VoidHandler>.destroyNotify)
        }
    }
}

/// A modal question over a window, with buttons the caller names; the answer comes once.
public final class MessageDialog: Widget {
    public enum Kind { case warning, error }

    public init(over parent: ApplicationWindow, kind: Kind, primary: String, secondary: String?) {
        let type = kind == .warning ? GTK_MESSAGE_WARNING : GTK_MESSAGE_ERROR
        // GTK owns its toplevels: the wrapper holds a reference of its own.
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
        connect(pointer, "response", trampoline: unsafeBitCast(trampoline, to: GCallback.self), handler: handler as Handler)
    }

    public func present() { gtk_widget_show_all(widget) }

    public func destroy() { gtk_widget_destroy(widget) }
}

public extension ApplicationWindow {
    /// The user asks to close the window; return true to keep it open.
    func onCloseRequest(_ handler: @escaping @MainActor () -> Bool) {
        typealias Handler = @MainActor () -> Bool
        let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> gboolean = { _, _, userData in
            let box = CallbackBox<Handler>.from(userData: userData)
            return onMain { box.handler() } ? 1 : 0
        }
        connect(pointer, "delete-event", trampoline: unsafeBitCast(trampoline, to: GCallback.self), handler: handler as Handler)
    }
}

/// GNOME's About window: the name, version, a short description, the license, the website and
/// who translated the app into the user's language.
public final class AboutDialog: Widget {
    /// `translatorCredits`: who translated the app, one a line; nil when the user reads it in English.
    @MainActor public init(over parent: ApplicationWindow, name: String, version: String, comments: String, website: String,
                           iconName: String, authors: [String], translatorCredits: String?) {
        // GTK owns its toplevels: the wrapper holds a reference of its own.
        super.init(borrowing: gtk_about_dialog_new())
        let dialog = UnsafeMutablePointer<GtkAboutDialog>(OpaquePointer(widget))
        gtk_window_set_transient_for(typed(), parent.typed())
        gtk_window_set_modal(typed(), 1)
        gtk_about_dialog_set_program_name(dialog, name)
        gtk_about_dialog_set_version(dialog, version)
        gtk_about_dialog_set_comments(dialog, comments)
        gtk_about_dialog_set_website(dialog, website)
        gtk_about_dialog_set_logo_icon_name(dialog, iconName)
        gtk_about_dialog_set_license_type(dialog, GTK_LICENSE_MIT_X11)
        gtk_about_dialog_set_translator_credits(dialog, translatorCredits)
        var names: [UnsafePointer<gchar>?] = authors.map { UnsafePointer(strdup($0)) }
        names.append(nil)
        defer { names.forEach { free(UnsafeMutableRawPointer(mutating: $0)) } }
        gtk_about_dialog_set_authors(dialog, &names)
        // Its Close button answers with a response; the window goes then.
        let trampoline: @convention(c) (gpointer?, gint, gpointer?) -> Void = { dialog, _, _ in
            gtk_widget_destroy(dialog?.assumingMemoryBound(to: GtkWidget.self))
        }
        cshim_signal_connect(pointer, "response", unsafeBitCast(trampoline, to: GCallback.self), nil, nil)
    }

    @MainActor public func present() { gtk_window_present(typed()) }
}
