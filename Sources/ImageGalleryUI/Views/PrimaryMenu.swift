import GalleryCore
import GtkKit

/// The primary menu of the header bar, as GtkBuilder XML (a GMenu with mnemonics and sections). Its
/// words are marked with `N_` for the catalog and `translatable="yes"` for GtkBuilder, which
/// translates them as it loads.
enum PrimaryMenu {
    static func builder() -> Builder { Builder(xml: xml, translationDomain: AppInfo.textDomain) }

    static let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <interface>
          <menu id="primary-menu">
            <section>
              \(item(N_("_New Window"), action: "app.new-window"))
              \(item(N_("New _Gallery"), action: "app.new-gallery"))
              \(item(N_("_Rename Gallery…"), action: "win.rename"))
              \(item(N_("Show _Galleries"), action: "win.show-sidebar"))
              \(item(N_("_Play Animations"), action: "app.play-animations"))
            </section>
            <section>
              \(item(N_("_Add Images…"), action: "win.add-images"))
              \(item(N_("Add _Folder…"), action: "win.add-folder"))
              \(item(N_("_Export Gallery…"), action: "win.export"))
              \(item(N_("_Check Library"), action: "app.check-library"))
              \(item(N_("_Move Library…"), action: "app.move-library"))
            </section>
            <section>
              \(item(N_("_Paste"), action: "win.paste"))
              \(item(N_("Select _All"), action: "win.select-all"))
              \(item(N_("Manage _Tags…"), action: "win.manage-tags"))
              \(item(N_("Find _Duplicates"), action: "win.find-duplicates"))
            </section>
            <section>
              \(item(N_("_Keyboard Shortcuts"), action: "win.shortcuts"))
              \(item(N_("_Help"), action: "app.help"))
              \(item(N_("_About Image Gallery"), action: "app.about"))
              \(item(N_("_Quit"), action: "app.quit"))
            </section>
          </menu>
        </interface>
        """

    private static func item(_ label: String, action: String) -> String {
        """
        <item><attribute name="label" translatable="yes">\(label)</attribute>\
        <attribute name="action">\(action)</attribute></item>
        """
    }
}
