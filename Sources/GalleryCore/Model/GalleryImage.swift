import Foundation

/// An image in a gallery: where it comes from and its shape (width / height).
public struct GalleryImage: Hashable, Sendable {
    public var id: ImageID
    public var url: String
    public var aspectRatio: Double
    /// What many images lack, behind one reference: a library holds its images' array two or three times, and
    /// these fields inline made each element five times as large.
    private var details: Details?

    /// The bytes the library keeps for it; nil until they are kept (an image on disk is read where it is).
    public var original: KeptOriginal? {
        get { details?.fields.original }
        set { change { $0.original = newValue } }
    }
    /// Where it came from and how; nil for images added before the app recorded it.
    public var origin: ImageOrigin? {
        get { details?.fields.origin }
        set { change { $0.origin = newValue } }
    }
    /// Why the user kept it, in their words.
    public var note: String? {
        get { details?.fields.note }
        set { change { $0.note = newValue } }
    }
    /// The user's tags, in the order they were given; a `/` nests one in another (`colour/red`).
    public var tags: [String] {
        get { details?.fields.tags ?? [] }
        set { change { $0.tags = newValue } }
    }
    /// What it looks like (fingerprint and palette), measured from its pixels; nil until measured.
    public var likeness: Likeness? {
        get { details?.fields.likeness }
        set { change { $0.likeness = newValue } }
    }
    /// Whether it moves (its frame count and duration), read from its header; nil until read.
    public var animation: AnimationSummary? {
        get { details?.fields.animation }
        set { change { $0.animation = newValue } }
    }
    /// The copies of it that were merged into it, with the addresses they came from.
    public var mergedCopies: [MergedCopy] {
        get { details?.fields.mergedCopies ?? [] }
        set { change { $0.mergedCopies = newValue } }
    }
    /// Every address it is known by: its own, then its merged copies'.
    public var addresses: [String] { [url] + mergedCopies.map(\.url) }
    /// Fields this version does not know (a newer version's): written back as read.
    public var unknownFields: [String: RawJSON] {
        get { details?.fields.unknownFields ?? [:] }
        set { change { $0.unknownFields = newValue } }
    }

    public init(id: ImageID = .make(), url: String, aspectRatio: Double) {
        self.id = id
        self.url = url
        self.aspectRatio = aspectRatio
    }

    private mutating func change(_ body: (inout Details.Fields) -> Void) {
        var fields = details?.fields ?? Details.Fields()
        body(&fields)
        details = fields == Details.Fields() ? nil : Details(fields)
    }

    /// The fields an image may lack, shared by the copies of one image until one of them changes.
    private final class Details: Hashable, Sendable {
        struct Fields: Hashable, Sendable {
            var original: KeptOriginal?
            var origin: ImageOrigin?
            var note: String?
            var tags: [String] = []
            var likeness: Likeness?
            var animation: AnimationSummary?
            var mergedCopies: [MergedCopy] = []
            var unknownFields: [String: RawJSON] = [:]
        }

        let fields: Fields

        init(_ fields: Fields) { self.fields = fields }

        static func == (left: Details, right: Details) -> Bool { left === right || left.fields == right.fields }

        func hash(into hasher: inout Hasher) { hasher.combine(fields) }
    }

    /// The ratio used for layout: a missing or absurd value in the file shows as a square.
    public var displayAspectRatio: Double {
        aspectRatio.isFinite && aspectRatio > 0.01 && aspectRatio < 100 ? aspectRatio : 1
    }

    /// A short human label: the last path component of the URL, or the kind of source.
    public var label: String { ImageSourceLabel.label(for: url) }
}
