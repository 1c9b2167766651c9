import Foundation

/// Everything that is saved: the JSON document at `$XDG_DATA_HOME/image-gallery/state.json`.
public struct GalleryState: Hashable, Sendable {
    public static let currentVersion = 1

    public var version: Int
    public var galleries: [Gallery]
    /// The gallery the last active window showed; absent in files written before several galleries.
    public var shownGalleryID: String?
    /// Whether windows show the galleries sidebar (F9); absent means shown.
    public var sidebarVisible: Bool?
    /// Whether every animation on screen plays, not only the one under the pointer or the focus; absent means not.
    public var playAnimations: Bool?
    /// Searches kept as sidebar rows, in sidebar order; absent (none) in older files.
    public var smartGalleries: [SmartGallery] = []

    /// Fields this version does not know: written back as read.
    public var unknownFields: [String: RawJSON] = [:]

    public init(galleries: [Gallery], shownGalleryID: String? = nil, sidebarVisible: Bool? = nil) {
        version = Self.currentVersion
        self.galleries = galleries
        self.shownGalleryID = shownGalleryID
        self.sidebarVisible = sidebarVisible
    }

    /// A first launch: one empty gallery.
    public static var initial: GalleryState {
        // Translators: the name of the first gallery, made at the first launch.
        GalleryState(galleries: [Gallery(name: tr("Gallery"))])
    }
}
