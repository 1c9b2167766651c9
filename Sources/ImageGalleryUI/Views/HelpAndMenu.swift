import GtkKit

/// The primary menu and the keyboard shortcuts window (Ctrl+?).
enum HelpAndMenu {
    static let xml = """
    <?xml version="1.0" encoding="UTF-8"?>
    <interface>
      <menu id="primary-menu">
        <section>
          <item><attribute name="label" translatable="yes">_New Window</attribute><attribute name="action">app.new-window</attribute></item>
          <item><attribute name="label" translatable="yes">New _Gallery</attribute><attribute name="action">app.new-gallery</attribute></item>
          <item><attribute name="label" translatable="yes">_Rename Gallery…</attribute><attribute name="action">win.rename</attribute></item>
          <item><attribute name="label" translatable="yes">Show _Galleries</attribute><attribute name="action">win.show-sidebar</attribute></item>
        </section>
        <section>
          <item><attribute name="label" translatable="yes">_Paste</attribute><attribute name="action">win.paste</attribute></item>
          <item><attribute name="label" translatable="yes">Select _All</attribute><attribute name="action">win.select-all</attribute></item>
        </section>
        <section>
          <item><attribute name="label" translatable="yes">_Keyboard Shortcuts</attribute><attribute name="action">win.shortcuts</attribute></item>
          <item><attribute name="label" translatable="yes">_Quit</attribute><attribute name="action">app.quit</attribute></item>
        </section>
      </menu>
      <object class="GtkShortcutsWindow" id="shortcuts">
        <property name="modal">1</property>
        <child>
          <object class="GtkShortcutsSection">
            <property name="visible">1</property>
            <property name="section-name">shortcuts</property>
            <child>
              <object class="GtkShortcutsGroup">
                <property name="visible">1</property>
                <property name="title" translatable="yes">Arranging</property>
                \(shortcut("Left Right Up Down", "Move the focus"))
                \(shortcut("&lt;Alt&gt;Left &lt;Alt&gt;Right &lt;Alt&gt;Up &lt;Alt&gt;Down", "Move the selected images"))
                \(shortcut("&lt;Ctrl&gt;&lt;Shift&gt;Left &lt;Ctrl&gt;&lt;Shift&gt;Right", "Move the selected images (also)"))
                \(shortcut("Delete", "Move the selected images to the trash"))
                \(shortcut("Return", "Retry an image that could not be loaded"))
              </object>
            </child>
            <child>
              <object class="GtkShortcutsGroup">
                <property name="visible">1</property>
                <property name="title" translatable="yes">Selecting</property>
                \(shortcut("&lt;Ctrl&gt;a", "Select all"))
                \(shortcut("space", "Select or deselect the focused image"))
                \(shortcut("&lt;Shift&gt;Left &lt;Shift&gt;Right", "Extend the selection"))
                \(shortcut("Escape", "Clear the selection"))
              </object>
            </child>
            <child>
              <object class="GtkShortcutsGroup">
                <property name="visible">1</property>
                <property name="title" translatable="yes">Galleries</property>
                \(shortcut("&lt;Ctrl&gt;n", "New gallery"))
                \(shortcut("F2", "Rename the gallery"))
                \(shortcut("Delete", "Delete the gallery (in the sidebar)"))
                \(shortcut("F9", "Show or hide the galleries"))
                \(shortcut("&lt;Ctrl&gt;&lt;Shift&gt;n", "New window"))
                \(shortcut("&lt;Ctrl&gt;w", "Close the window"))
              </object>
            </child>
            <child>
              <object class="GtkShortcutsGroup">
                <property name="visible">1</property>
                <property name="title" translatable="yes">General</property>
                \(shortcut("&lt;Ctrl&gt;v", "Paste an image or an image address"))
                \(shortcut("&lt;Ctrl&gt;z", "Undo"))
                \(shortcut("&lt;Ctrl&gt;&lt;Shift&gt;z", "Redo"))
                \(shortcut("&lt;Ctrl&gt;plus &lt;Ctrl&gt;minus", "Larger or smaller images"))
                \(shortcut("&lt;Ctrl&gt;question", "Keyboard shortcuts"))
                \(shortcut("&lt;Ctrl&gt;q", "Quit"))
              </object>
            </child>
          </object>
        </child>
      </object>
    </interface>
    """

    private static func shortcut(_ accelerator: String, _ title: String) -> String {
        """
        <child><object class="GtkShortcutsShortcut"><property name="visible">1</property>\
        <property name="accelerator">\(accelerator)</property>\
        <property name="title" translatable="yes">\(title)</property></object></child>
        """
    }
}
