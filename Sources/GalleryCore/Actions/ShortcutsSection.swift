/// A group of the shortcuts window (Ctrl+?), in the order the window shows them.
public enum ShortcutsSection: CaseIterable, Sendable {
    case arranging, selecting, images, galleries, general, viewing

    /// The group's heading: an English message marked for the catalog, which GtkBuilder translates as it loads.
    public var title: String {
        switch self {
        case .arranging: N_("Arranging")
        case .selecting: N_("Selecting")
        case .images: N_("Images")
        case .galleries: N_("Galleries")
        case .general: N_("General")
        case .viewing: N_("Viewing an Image")
        }
    }
}
