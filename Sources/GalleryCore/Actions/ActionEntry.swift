/// One line of `ActionTable`: an application (`app.`) or window (`win.`) action and the keys GTK gives it, or
/// keys a view handles itself; and where the shortcuts window lists it.
public struct ActionEntry: Equatable, Sendable {
    /// The detailed name (`app.quit`, `win.paste`) that menus, buttons and GTK's accelerators use; nil for keys
    /// a view handles itself.
    public let name: String?
    /// GTK's accelerators for the action; empty for keys a view handles.
    public let accelerators: [String]
    /// The lines of the shortcuts window about it; none when the window leaves it out.
    public let shortcuts: [ShortcutsEntry]

    /// Keys a view reads itself (arrows in the grid, Delete in the sidebar): shown, never given to GTK.
    public var isHandledByView: Bool { name == nil }

    /// An action; each `shown` line draws the first of `accelerators`, the one a user learns, then `alsoDrawing`.
    static func action(
        _ name: String, _ accelerators: [String] = [], shown: [(ShortcutsSection, String)] = [],
        alsoDrawing: [String] = []
    ) -> ActionEntry {
        let drawn = Array(accelerators.prefix(1)) + alsoDrawing
        return ActionEntry(
            name: name, accelerators: accelerators,
            shortcuts: shown.map { ShortcutsEntry(section: $0.0, title: $0.1, keys: drawn, action: name) })
    }

    /// Keys a view handles, shown as one line of the shortcuts window; `accelerator` in GTK's syntax, its
    /// alternatives apart by spaces, as the window's own `accelerator` property reads them.
    static func viewKeys(accelerator: String, _ section: ShortcutsSection, _ title: String) -> ActionEntry {
        let keys = accelerator.split(separator: " ").map(String.init)
        return ActionEntry(
            name: nil, accelerators: [],
            shortcuts: [ShortcutsEntry(section: section, title: title, keys: keys, action: nil)])
    }
}
