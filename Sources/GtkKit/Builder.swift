import CGtk
import GLibKit

/// Objects described in GtkBuilder XML (menus, the shortcuts window), for what GTK only offers that way.
public final class Builder: Object {
    /// `translationDomain`: the gettext domain that translates the properties marked `translatable="yes"`.
    public init(xml: String, translationDomain: String) {
        let builder = gtk_builder_new()!
        gtk_builder_set_translation_domain(builder, translationDomain)
        // The XML is the app's own, so an error in it is a programming error, caught by the tests that open these.
        gtk_builder_add_from_string(builder, xml, gsize(xml.utf8.count), nil)
        super.init(owning: UnsafeMutableRawPointer(builder))
    }

    func object(_ id: String) -> gpointer? {
        gtk_builder_get_object(typed(), id).map { UnsafeMutableRawPointer($0) }
    }

    /// Shows the GtkShortcutsWindow `id` over `parent`.
    @MainActor public func presentShortcutsWindow(_ id: String, over parent: ApplicationWindow) {
        guard let window = object(id) else { return }
        gtk_window_set_transient_for(window.assumingMemoryBound(to: GtkWindow.self), parent.typed())
        gtk_widget_show_all(window.assumingMemoryBound(to: GtkWidget.self))
        gtk_window_present(window.assumingMemoryBound(to: GtkWindow.self))
    }
}
