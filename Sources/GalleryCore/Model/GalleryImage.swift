import Foundation

/// An image in a gallery: where it comes from and its shape (width / height).
public struct GalleryImage: Hashable, Sendable {
    public var id: ImageID
    public var url: String
    public var aspectRatio: Double
    /// What many images lack, behind one reference, packed (`ImageDetails`): a library holds its images' array two
    /// or three times, and these fields inline made each element five times as large.
    private(set) var details: ImageDetails?

    /// The bytes the library keeps for it; nil until they are kept (an image on disk is read where it is).
    public var original: KeptOriginal? {
        get { details?.original }
        set { change { $0.original = newValue } }
    }
    /// Where it came from and how; nil for images added before the app recorded it.
    public var origin: ImageOrigin? {
        get { details?.origin }
        set { change { $0.origin = newValue } }
    }
    /// Why the user kept it, in their words.
    public var note: String? {
        get { details?.note }
        set { change { $0.note = newValue } }
    }
    /// The user's tags, in the order they were given; a `/` nests one in another (`colour/red`).
    public var tags: [String] {
        get { details?.tags ?? [] }
        set { change { $0.tags = newValue } }
    }
    /// What it looks like (fingerprint and palette), measured from its pixels; nil until measured.
    public var likeness: Likeness? {
        get { details?.likeness }
        set { measure(likeness: newValue, animation: animation) }
    }
    /// Whether it moves (its frame count and duration), read from its header; nil until read.
    public var animation: AnimationSummary? {
        get { details?.animation }
        set { measure(likeness: likeness, animation: newValue) }
    }
    /// The copies of it that were merged into it, with the addresses they came from.
    public var mergedCopies: [MergedCopy] {
        get { details?.mergedCopies ?? [] }
        set { change { $0.mergedCopies = newValue } }
    }
    /// Every address it is known by: its own, then its merged copies'.
    public var addresses: [String] { [url] + mergedCopies.map(\.url) }
    /// Fields this version does not know (a newer version's): written back as read.
    public var unknownFields: [String: RawJSON] {
        get { details?.unknownFields ?? [:] }
        set { change { $0.unknownFields = newValue } }
    }

    /// Every field but the id, the address and the ratio, at once: a reader sets them all in one packing.
    var detailFields: ImageDetails.Fields {
        get { details?.fields ?? ImageDetails.Fields() }
        set { details = ImageDetails(newValue) }
    }

    /// The kept original's name as its 32 bytes: a set of a million of them makes no string each (`original` does).
    public var originalDigest: OriginalDigest? { details?.originalDigest }

    /// One text of its origin, note or original, without a copy: for the loops over every image (the search index).
    func detailText(_ slot: ImageDetails.Slot) -> Substring? { details?.text(slot) }

    /// The length of one of those texts in UTF-8; nil when absent.
    func detailTextCount(_ slot: ImageDetails.Slot) -> Int? { details?.textCount(slot) }

    public init(id: ImageID = .make(), url: String, aspectRatio: Double) {
        self.id = id
        self.url = url
        self.aspectRatio = aspectRatio
    }

    /// Sets the measurements, which the details keep beside their packed texts: a copy of the details that shares
    /// them, when there are details to copy and something measured to set.
    mutating func measure(likeness: Likeness?, animation: AnimationSummary?) {
        if let details, let measured = details.measured(likeness: likeness, animation: animation) {
            self.details = measured
        } else {
            change {
                $0.likeness = likeness
                $0.animation = animation
            }
        }
    }

    private mutating func change(_ body: (inout ImageDetails.Fields) -> Void) {
        var fields = detailFields
        body(&fields)
        detailFields = fields
    }

    /// The ratio used for layout: a missing or absurd value in the file shows as a square.
    public var displayAspectRatio: Double {
        aspectRatio.isFinite && aspectRatio > 0.01 && aspectRatio < 100 ? aspectRatio : 1
    }

    /// A short human label: the last path component of the URL, or the kind of source.
    public var label: String { ImageSourceLabel.label(for: url) }
}
