import CGtk
import Foundation

/// The desktop's own file chooser (GtkFileChooserNative): the portal's dialog in a sandbox,
/// GTK's dialog otherwise. Keep it alive until `run`'s handler has been called.
@MainActor
public final class FileChooser: Object {
    public enum Purpose {
        /// Saving one file, under a name the user may change; replacing a file is confirmed.
        case save(suggestedName: String)
        /// Choosing a folder to save into.
        case selectFolder
    }

    public init(title: String, parent: ApplicationWindow, purpose: Purpose, acceptLabel: String, folder: String?) {
        let action: GtkFileChooserAction = switch purpose {
        case .save: GTK_FILE_CHOOSER_ACTION_SAVE
        case .selectFolder: GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER
        }
        let window = UnsafeMutableRawPointer(parent.widget).assumingMemoryBound(to: GtkWindow.self)
        super.init(owning: UnsafeMutableRawPointer(gtk_file_chooser_native_new(title, window, action, acceptLabel, nil)))
        gtk_native_dialog_set_modal(typed(), 1)
        let chooser = OpaquePointer(pointer)
        if let folder { gtk_file_chooser_set_current_folder(chooser, folder) }
        if case .save(let name) = purpose {
            gtk_file_chooser_set_do_overwrite_confirmation(chooser, 1)
            gtk_file_chooser_set_current_name(chooser, name)
        }
    }

    /// Shows the chooser; `handler` gets the chosen path, or nil when the user cancelled.
    public func run(_ handler: @escaping @MainActor (String?) -> Void) {
        typealias Handler = @MainActor (String?) -> Void
        let trampoline: @convention(c) (gpointer?, gint, gpointer?) -> Void = { chooser, response, userData in
            let box = CallbackBox<Handler>.from(userData: userData)
            var path: String?
            if response == GTK_RESPONSE_ACCEPT.rawValue, let name = gtk_file_chooser_get_filename(OpaquePointer(chooser)) {
                path = String(cString: name)
                g_free(name)
            }
            onMain { box.handler(path) }
        }
        connect(pointer, "response", trampoline: unsafeBitCast(trampoline, to: GCallback.self), handler: handler as Handler)
        gtk_native_dialog_show(typed())
    }

    /// The user's Pictures folder (their home folder when there is none), where images are saved
    /// unless the user chose another place.
    public static var picturesFolder: String {
        g_get_user_special_dir(G_USER_DIRECTORY_PICTURES).map { String(cString: $0) } ?? String(cString: g_get_home_dir())
    }
}
