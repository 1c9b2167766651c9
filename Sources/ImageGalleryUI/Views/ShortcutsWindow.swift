import GalleryCore
import GtkKit

/// The keyboard shortcuts window (Ctrl+?), as GtkBuilder XML, the way GTK describes one. Its words are
/// marked with `N_` for the catalog and `translatable="yes"` for GtkBuilder, which translates them as
/// it loads.
enum ShortcutsWindow {
    static func builder() -> Builder { Builder(xml: xml, translationDomain: AppInfo.textDomain) }

    static let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <interface>
          <object class="GtkShortcutsWindow" id="shortcuts">
            <property name="modal">1</property>
            <child>
              <object class="GtkShortcutsSection">
                <property name="visible">1</property>
                <property name="section-name">shortcuts</property>
                <property name="max-height">20</property>
                \(group(N_("Arranging"), [
                shortcut(accelerator: "Left Right Up Down", N_("Move the focus")),
                shortcut(accelerator: "&lt;Alt&gt;Left &lt;Alt&gt;Right &lt;Alt&gt;Up &lt;Alt&gt;Down", N_("Move the selected images")),
                shortcut(accelerator: "&lt;Ctrl&gt;&lt;Shift&gt;Left &lt;Ctrl&gt;&lt;Shift&gt;Right", N_("Move the selected images (also)")),
                shortcut(accelerator: "Delete", N_("Move the selected images to the trash")),
                shortcut(accelerator: "Return", N_("Retry an image that could not be loaded")),
            ]))
                \(group(N_("Selecting"), [
                shortcut(accelerator: "&lt;Ctrl&gt;a", N_("Select all")),
                shortcut(accelerator: "space", N_("Select or deselect the focused image")),
                shortcut(accelerator: "&lt;Shift&gt;Left &lt;Shift&gt;Right", N_("Extend the selection")),
                shortcut(accelerator: "Escape", N_("Clear the selection")),
            ]))
                \(group(N_("Images"), [
                shortcut(accelerator: "&lt;Ctrl&gt;c", N_("Copy the selected images")),
                shortcut(accelerator: "&lt;Ctrl&gt;x", N_("Cut the selected images")),
                shortcut(accelerator: "Menu &lt;Shift&gt;F10", N_("Menu of the selected images")),
                shortcut(accelerator: "&lt;Alt&gt;Return", N_("Properties of the focused image")),
                shortcut(accelerator: "&lt;Ctrl&gt;t", N_("Tags of the selected images")),
            ]))
                \(group(N_("Galleries"), [
                shortcut(accelerator: "&lt;Ctrl&gt;n", N_("New gallery")),
                shortcut(accelerator: "F2", N_("Rename the gallery")),
                shortcut(accelerator: "Delete", N_("Delete the gallery (in the sidebar)")),
                shortcut(accelerator: "F9", N_("Show or hide the galleries")),
                shortcut(accelerator: "&lt;Ctrl&gt;&lt;Shift&gt;n", N_("New window")),
                shortcut(accelerator: "&lt;Ctrl&gt;w", N_("Close the window")),
            ]))
                \(group(N_("General"), [
                shortcut(accelerator: "&lt;Ctrl&gt;f", N_("Search every gallery")),
                shortcut(accelerator: "&lt;Ctrl&gt;o", N_("Add images from your computer")),
                shortcut(accelerator: "&lt;Ctrl&gt;v", N_("Paste an image or an image address")),
                shortcut(accelerator: "&lt;Ctrl&gt;z", N_("Undo")),
                shortcut(accelerator: "&lt;Ctrl&gt;&lt;Shift&gt;z", N_("Redo")),
                shortcut(accelerator: "&lt;Ctrl&gt;plus &lt;Ctrl&gt;minus", N_("Larger or smaller images")),
                shortcut(accelerator: "F1", N_("Help")),
                shortcut(accelerator: "&lt;Ctrl&gt;question", N_("Keyboard shortcuts")),
                shortcut(accelerator: "&lt;Ctrl&gt;q", N_("Quit")),
            ]))
                \(group(N_("Viewing an Image"), [
                shortcut(accelerator: "Return", N_("Open the focused image")),
                shortcut(accelerator: "Left Right Page_Up Page_Down", N_("Previous or next image")),
                shortcut(accelerator: "&lt;Ctrl&gt;plus &lt;Ctrl&gt;minus", N_("Zoom in or out")),
                shortcut(accelerator: "&lt;Ctrl&gt;0", N_("Fit the image to the window")),
                shortcut(accelerator: "1", N_("Show the image at its real size")),
                shortcut(accelerator: "Delete", N_("Move the image to the trash")),
                shortcut(accelerator: "Escape", N_("Back to the gallery")),
            ]))
              </object>
            </child>
          </object>
        </interface>
        """

    private static func group(_ title: String, _ shortcuts: [String]) -> String {
        """
        <child><object class="GtkShortcutsGroup"><property name="visible">1</property>\
        <property name="title" translatable="yes">\(title)</property>\(shortcuts.joined())</object></child>
        """
    }

    /// `accelerator`: GTK's syntax, XML-escaped; the window draws the keys itself.
    private static func shortcut(accelerator: String, _ title: String) -> String {
        """
        <child><object class="GtkShortcutsShortcut"><property name="visible">1</property>\
        <property name="accelerator">\(accelerator)</property>\
        <property name="title" translatable="yes">\(title)</property></object></child>
        """
    }
}
