/// What one drop or paste holds.
public struct DropContents: Sendable, Equatable {
    /// The distinct images, in drop order.
    public var images: [DroppedImage]
    /// Addresses left out unread for being longer than `ImageLimits.maximumAddressLength` (a `data:` URI of
    /// an image larger than a download may be).
    public var oversizedAddresses: Int

    public init(images: [DroppedImage], oversizedAddresses: Int = 0) {
        self.images = images
        self.oversizedAddresses = oversizedAddresses
    }
}
