import Foundation

/// A named gallery: its images in the order it shows them.
public struct Gallery: Hashable, Sendable {
    public var id: String
    public var name: String
    public var images: [GalleryImage]
    /// Fields this version does not know: written back as read.
    public var unknownFields: [String: RawJSON] = [:]

    public init(id: String = RandomID.make(), name: String, images: [GalleryImage] = []) {
        self.id = id
        self.name = name
        self.images = images
    }
}
