import CGtk
import Foundation
import GLibKit

/// The desktop's own file chooser (GtkFileChooserNative): the portal's dialog in a sandbox,
/// GTK's dialog otherwise. Keep it alive until `run`'s handler has been called.
@MainActor
public final class FileChooser: Object {
    public enum Purpose {
        /// Saving one file, under a name the user may change; replacing a file is confirmed.
        case save(suggestedName: String)
        /// Choosing a folder to save into.
        case selectFolder
        /// Choosing existing files (several with `selectsMultiple`).
        case open
    }

    public init(title: String, parent: ApplicationWindow, purpose: Purpose, acceptLabel: String, folder: String?) {
        let action: GtkFileChooserAction =
            switch purpose {
            case .save: GTK_FILE_CHOOSER_ACTION_SAVE
            case .selectFolder: GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER
            case .open: GTK_FILE_CHOOSER_ACTION_OPEN
            }
        let window = UnsafeMutableRawPointer(parent.widget).assumingMemoryBound(to: GtkWindow.self)
        super.init(
            owning: UnsafeMutableRawPointer(gtk_file_chooser_native_new(title, window, action, acceptLabel, nil)))
        gtk_native_dialog_set_modal(typed(), 1)
        let chooser = OpaquePointer(pointer)
        if let folder { gtk_file_chooser_set_current_folder(chooser, folder) }
        if case .save(let name) = purpose {
            gtk_file_chooser_set_do_overwrite_confirmation(chooser, 1)
            gtk_file_chooser_set_current_name(chooser, name)
        }
    }

    /// Whether several files (or folders) can be chosen at once.
    public var selectsMultiple: Bool {
        get { gtk_file_chooser_get_select_multiple(OpaquePointer(pointer)) != 0 }
        set { gtk_file_chooser_set_select_multiple(OpaquePointer(pointer), newValue ? 1 : 0) }
    }

    /// A filter in the chooser's list; the first added is the one in use.
    public func addFilter(name: String, mimeTypes: [String] = [], patterns: [String] = []) {
        let filter = gtk_file_filter_new()
        gtk_file_filter_set_name(filter, name)
        for type in mimeTypes { gtk_file_filter_add_mime_type(filter, type) }
        for pattern in patterns { gtk_file_filter_add_pattern(filter, pattern) }
        gtk_file_chooser_add_filter(OpaquePointer(pointer), filter)
    }

    /// Shows the chooser; `handler` gets the chosen path, or nil when the user cancelled.
    public func run(_ handler: @escaping @MainActor (String?) -> Void) {
        runChoosingMany { paths in handler(paths?.first) }
    }

    /// Shows the chooser; `handler` gets every chosen path, in the chooser's order, or nil when the
    /// user cancelled.
    public func runChoosingMany(_ handler: @escaping @MainActor ([String]?) -> Void) {
        typealias Handler = @MainActor ([String]?) -> Void
        let trampoline: @convention(c) (gpointer?, gint, gpointer?) -> Void = { chooser, response, userData in
            let box = CallbackBox<Handler>.from(userData: userData)
            var paths: [String]?
            if response == GTK_RESPONSE_ACCEPT.rawValue {
                paths = []
                let list = gtk_file_chooser_get_filenames(OpaquePointer(chooser))
                var node = list
                while let current = node {
                    if let name = current.pointee.data {
                        paths?.append(String(cString: name.assumingMemoryBound(to: gchar.self)))
                    }
                    node = current.pointee.next
                }
                g_slist_free_full(list) { g_free($0) }
            }
            let chosen = paths
            onMain { box.handler(chosen) }
        }
        connect(
            pointer, "response", trampoline: unsafeBitCast(trampoline, to: GCallback.self), handler: handler as Handler)
        gtk_native_dialog_show(typed())
    }

    /// The user's Pictures folder (their home folder when there is none), where images are saved
    /// unless the user chose another place.
    public static var picturesFolder: String {
        g_get_user_special_dir(G_USER_DIRECTORY_PICTURES).map { String(cString: $0) }
            ?? String(cString: g_get_home_dir())
    }
}
