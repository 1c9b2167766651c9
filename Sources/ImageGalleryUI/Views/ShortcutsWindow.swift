import GalleryCore
import GtkKit

/// The keyboard shortcuts window (Ctrl+?), as GtkBuilder XML, the way GTK describes one, built from
/// `ActionTable`. Its words are marked with `N_` there and `translatable="yes"` here, so GtkBuilder
/// translates them as it loads.
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
                \(ActionTable.shortcutsWindow.map { group($0.section.title, $0.shortcuts.map(shortcut)) }.joined())
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

    /// The window draws the keys itself, from GTK's syntax.
    private static func shortcut(_ entry: ShortcutsEntry) -> String {
        let accelerator = entry.keys.joined(separator: " ").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
        return """
            <child><object class="GtkShortcutsShortcut"><property name="visible">1</property>\
            <property name="accelerator">\(accelerator)</property>\
            <property name="title" translatable="yes">\(entry.title)</property></object></child>
            """
    }
}
