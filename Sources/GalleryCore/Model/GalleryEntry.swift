/// A gallery as the sidebar and menus name it; its images are the library's cells of it.
public struct GalleryEntry: Hashable, Sendable {
    public let id: String
    public var name: String
}
