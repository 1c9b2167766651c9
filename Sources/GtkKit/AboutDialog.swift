import CGtk
import CShim
import GLibKit

/// GNOME's About window: the name, version, a short description, the license, the website and
/// who translated the app into the user's language.
public final class AboutDialog: Widget {
    /// `translatorCredits`: who translated the app, one a line; nil when the user reads it in English.
    @MainActor public init(
        over parent: ApplicationWindow, name: String, version: String, comments: String, website: String,
        iconName: String, authors: [String], translatorCredits: String?
    ) {
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
        defer { for pointer in names { free(UnsafeMutableRawPointer(mutating: pointer)) } }
        gtk_about_dialog_set_authors(dialog, &names)
        // Its Close button answers with a response; the window goes then.
        let trampoline: @convention(c) (gpointer?, gint, gpointer?) -> Void = { dialog, _, _ in
            gtk_widget_destroy(dialog?.assumingMemoryBound(to: GtkWidget.self))
        }
        cshim_signal_connect(pointer, "response", unsafeBitCast(trampoline, to: GCallback.self), nil, nil)
    }

    @MainActor public func present() { gtk_window_present(typed()) }
}
