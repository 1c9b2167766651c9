import CGtk

public enum IconTheme {
    /// Looks for icons in `path` too (a `hicolor`-style tree), after the installed ones.
    @MainActor public static func appendSearchPath(_ path: String) {
        gtk_icon_theme_append_search_path(gtk_icon_theme_get_default(), path)
    }
}
