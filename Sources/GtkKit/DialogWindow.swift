import CGtk
import GLibKit

/// A window of its own over an application window (a properties dialog): it stays above its
/// parent, goes with it, and Escape closes it, as GNOME's dialogs do.
@MainActor
public final class DialogWindow: Container {
    public init(title: String, parent: ApplicationWindow) {
        super.init(borrowing: gtk_window_new(GTK_WINDOW_TOPLEVEL))
        gtk_window_set_title(typed(), title)
        gtk_window_set_transient_for(typed(), parent.typed())
        gtk_window_set_destroy_with_parent(typed(), 1)
        gtk_window_set_type_hint(typed(), GDK_WINDOW_TYPE_HINT_DIALOG)
        onKeyPress { [weak self] key in
            guard key.keyName == "Escape", key.modifiers.isEmpty else { return false }
            self?.close()
            return true
        }
    }

    /// A header bar in place of the title bar, holding the dialog's buttons.
    public func setTitlebar(_ titlebar: Widget) { gtk_window_set_titlebar(typed(), titlebar.widget) }
    /// Input to the parent window waits until the dialog is gone.
    public func setModal(_ modal: Bool) { gtk_window_set_modal(typed(), modal ? 1 : 0) }

    public func setDefaultSize(width: Int32, height: Int32) { gtk_window_set_default_size(typed(), width, height) }
    public func present() { gtk_window_present(typed()) }
    /// Closes it as its close button would: GTK destroys it, then `onDestroy` runs.
    public func close() { gtk_window_close(typed()) }
    public var isActive: Bool { gtk_window_is_active(typed()) != 0 }
}
