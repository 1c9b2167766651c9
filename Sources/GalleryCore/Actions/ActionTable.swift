/// Every application (`app.`) and window (`win.`) action with its accelerators, and every line of the
/// shortcuts window (Ctrl+?): GTK's accelerators and that window are both built from it, and the app and
/// each window give a handler to each of their actions here by name.
///
/// Within a section, the shortcuts window keeps the table's order.
public enum ActionTable {
    private static let zoomIn = ["<Control>plus", "<Control>equal", "<Control>KP_Add"]
    private static let zoomOut = ["<Control>minus", "<Control>KP_Subtract"]

    public static let entries: [ActionEntry] = [
        .viewKeys(accelerator: "Left Right Up Down", .arranging, N_("Move the focus")),
        .viewKeys(accelerator: "<Alt>Left <Alt>Right <Alt>Up <Alt>Down", .arranging, N_("Move the selected images")),
        .viewKeys(
            accelerator: "<Control><Shift>Left <Control><Shift>Right", .arranging, N_("Move the selected images (also)")
        ),
        .viewKeys(accelerator: "Delete", .arranging, N_("Move the selected images to the trash")),
        .viewKeys(accelerator: "Return", .arranging, N_("Retry an image that could not be loaded")),

        .viewKeys(accelerator: "<Control>a", .selecting, N_("Select all")),
        .viewKeys(accelerator: "space", .selecting, N_("Select or deselect the focused image")),
        .viewKeys(accelerator: "<Shift>Left <Shift>Right", .selecting, N_("Extend the selection")),
        .viewKeys(accelerator: "Escape", .selecting, N_("Clear the selection")),

        .viewKeys(accelerator: "<Control>c", .images, N_("Copy the selected images")),
        .viewKeys(accelerator: "<Control>x", .images, N_("Cut the selected images")),
        .viewKeys(accelerator: "Menu <Shift>F10", .images, N_("Menu of the selected images")),
        // As in Eye of GNOME and Files.
        .action(
            "win.properties", ["<Alt>Return", "<Alt>KP_Enter"],
            shown: [(.images, N_("Properties of the focused image"))]),
        .action("win.edit-tags", ["<Control>t"], shown: [(.images, N_("Tags of the selected images"))]),

        .action("app.new-gallery", ["<Control>n"], shown: [(.galleries, N_("New gallery"))]),
        .action("win.rename", ["F2"], shown: [(.galleries, N_("Rename the gallery"))]),
        .viewKeys(accelerator: "Delete", .galleries, N_("Delete the gallery (in the sidebar)")),
        .action("win.show-sidebar", ["F9"], shown: [(.galleries, N_("Show or hide the galleries"))]),
        .action("app.new-window", ["<Control><Shift>n"], shown: [(.galleries, N_("New window"))]),
        .action("win.close", ["<Control>w"], shown: [(.galleries, N_("Close the window"))]),

        .action("win.find", ["<Control>f"], shown: [(.general, N_("Search every gallery"))]),
        .action("win.add-images", ["<Control>o"], shown: [(.general, N_("Add images from your computer"))]),
        .action("win.paste", ["<Control>v"], shown: [(.general, N_("Paste an image or an image address"))]),
        .action("app.undo", ["<Control>z"], shown: [(.general, N_("Undo"))]),
        .action("app.redo", ["<Control><Shift>z", "<Control>y"], shown: [(.general, N_("Redo"))]),
        // The viewer's first keys come before the zoom, which both sections show in their middle.
        .viewKeys(accelerator: "Return", .viewing, N_("Open the focused image")),
        .viewKeys(accelerator: "Left Right Page_Up Page_Down", .viewing, N_("Previous or next image")),
        .action(
            "win.zoom-in", zoomIn,
            shown: [(.general, N_("Larger or smaller images")), (.viewing, N_("Zoom in or out"))],
            alsoDrawing: Array(zoomOut.prefix(1))),
        .action("win.zoom-out", zoomOut),
        .action("app.help", ["F1"], shown: [(.general, N_("Help"))]),
        .action("win.shortcuts", ["<Control>question"], shown: [(.general, N_("Keyboard shortcuts"))]),
        .action("app.quit", ["<Control>q"], shown: [(.general, N_("Quit"))]),

        .viewKeys(accelerator: "<Control>0", .viewing, N_("Fit the image to the window")),
        .viewKeys(accelerator: "1", .viewing, N_("Show the image at its real size")),
        .viewKeys(accelerator: "space", .viewing, N_("Play or pause an animation")),
        .viewKeys(accelerator: "comma period", .viewing, N_("Previous or next frame of a paused animation")),
        .viewKeys(accelerator: "Delete", .viewing, N_("Move the image to the trash")),
        .viewKeys(accelerator: "Escape", .viewing, N_("Back to the gallery")),

        // Menus, buttons and the window's own code reach these; no key of their own.
        .action("app.about"),
        .action("app.check-library"),
        .action("app.play-animations"),
        .action("app.move-library"),
        // The native host hands the browser extension's messages to the running app through it (`BrowserHost`).
        .action("app.browser-message"),
        .action("win.add-folder"),
        .action("win.export"),
        .action("win.export-gallery"),
        .action("win.select-all"),
        .action("win.open-image"),
        .action("win.image-properties"),
        .action("win.rename-gallery"),
        .action("win.delete-gallery"),
        .action("win.search-filter"),
        .action("win.search-colour"),
        .action("win.manage-tags"),
        .action("win.find-duplicates"),
        .action("win.more-like-this"),
        .action("win.move-images"),
        // The selected images' menu: Ctrl+C and Ctrl+X reach copy and cut through the grid, which leaves them to
        // a text entry that has the keyboard.
        .action("win.copy"),
        .action("win.cut"),
        .action("win.copy-address"),
        .action("win.load-from-local-network"),
        .action("win.open-in-browser"),
        .action("win.show-in-files"),
        .action("win.save-images"),
        .action("win.keep-copy"),
        .action("win.trash-images"),
    ]

    /// The shortcuts window's sections in order, each with its lines.
    public static var shortcutsWindow: [(section: ShortcutsSection, shortcuts: [ShortcutsEntry])] {
        let shortcuts = entries.flatMap(\.shortcuts)
        return ShortcutsSection.allCases.map { section in (section, shortcuts.filter { $0.section == section }) }
    }

    /// The names, without their prefix, of the actions whose detailed names start with `prefix` (`app.`, `win.`).
    public static func actionNames(prefix: String) -> Set<String> {
        Set(
            entries.compactMap { entry in
                guard let name = entry.name, name.hasPrefix(prefix) else { return nil }
                return String(name.dropFirst(prefix.count))
            })
    }
}
