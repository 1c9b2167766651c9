/// One line of the shortcuts window: the keys it draws and what they do.
public struct ShortcutsEntry: Equatable, Sendable {
    public let section: ShortcutsSection
    /// An English message marked for the catalog, which GtkBuilder translates as it loads.
    public let title: String
    /// Accelerators in GTK's syntax, drawn side by side as alternatives.
    public let keys: [String]
    /// The detailed name of the action the line is about; nil for keys a view handles itself.
    public let action: String?
}
