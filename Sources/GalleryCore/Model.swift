import Foundation

/// Stable identity of an image (or of a placeholder waiting to become one).
public struct ImageID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }

    public static func make() -> ImageID { ImageID(RandomID.make()) }

    public var description: String { rawValue }
}

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
    /// Fields this version does not know (a newer version's): written back as read.
    public var unknownFields: [String: JSONValue] {
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
            var unknownFields: [String: JSONValue] = [:]
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

public struct Gallery: Hashable, Sendable {
    public var id: String
    public var name: String
    public var images: [GalleryImage]
    /// Fields this version does not know: written back as read.
    public var unknownFields: [String: JSONValue] = [:]

    public init(id: String = RandomID.make(), name: String, images: [GalleryImage] = []) {
        self.id = id
        self.name = name
        self.images = images
    }
}

/// Everything that is saved: the JSON document at `$XDG_DATA_HOME/image-gallery/state.json`.
public struct GalleryState: Hashable, Sendable {
    public static let currentVersion = 1

    public var version: Int
    public var galleries: [Gallery]
    /// The gallery the last active window showed; absent in files written before several galleries.
    public var shownGalleryID: String?
    /// Whether windows show the galleries sidebar (F9); absent means shown.
    public var sidebarVisible: Bool?
    /// Searches kept as sidebar rows, in sidebar order; absent (none) in older files.
    public var smartGalleries: [SmartGallery] = []

    /// Fields this version does not know: written back as read.
    public var unknownFields: [String: JSONValue] = [:]

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

enum ImageSourceLabel {
    static func label(for url: String) -> String {
        if url.hasPrefix("data:") { return tr("Embedded image") }
        return plainLabel(for: url) ?? parsedLabel(for: url)
    }

    static func parsedLabel(for url: String) -> String {
        guard let components = URLComponents(string: url) else { return url }
        let last = components.percentEncodedPath.split(separator: "/").last.map(String.init) ?? ""
        // Pasted or dropped bytes are kept under their SHA-256: that name means nothing to a person.
        let stem = last.split(separator: ".").first ?? ""
        if stem.count == 64, stem.allSatisfy(\.isHexDigit) { return tr("Imported image") }
        // A decoded name with control characters (%00 cuts a C string short) is shown as it was written.
        if let decoded = last.removingPercentEncoding, !decoded.isEmpty,
            !decoded.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        {
            return decoded
        }
        if !last.isEmpty { return last }
        return components.host ?? url
    }

    /// `parsedLabel` of an address with a scheme and `://`, in printable ASCII without escapes (nearly every
    /// one), read from its bytes: parsing each address with URLComponents was most of building the search index.
    /// Nil for any other address.
    static func plainLabel(for url: String) -> String? {
        var url = url
        return url.withUTF8 { bytes -> String? in
            guard bytes.allSatisfy({ Self.isPlainByte($0) }) else { return nil }
            let end = bytes.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.count
            guard let colon = bytes[..<end].firstIndex(of: UInt8(ascii: ":")), colon > 0,
                bytes[0..<colon].allSatisfy({ Self.isSchemeByte($0) }), (0x61...0x7A).contains(bytes[0] | 0x20),
                colon + 2 < end, bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/")
            else { return nil }
            let authorityEnd = bytes[(colon + 3)..<end].firstIndex(of: UInt8(ascii: "/")) ?? end
            // The last segment that is not empty, as `split` gives it.
            var pathEnd = end
            while pathEnd > authorityEnd, bytes[pathEnd - 1] == UInt8(ascii: "/") { pathEnd -= 1 }
            let lastStart =
                bytes[authorityEnd..<pathEnd].lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? authorityEnd
            let last = bytes[lastStart..<pathEnd]
            guard !last.isEmpty else {
                var host = bytes[(colon + 3)..<authorityEnd]
                if let at = host.lastIndex(of: UInt8(ascii: "@")) { host = host[(at + 1)...] }
                if let port = host.firstIndex(of: UInt8(ascii: ":")) { host = host[..<port] }
                return String(decoding: host, as: UTF8.self)
            }
            let stem = last.drop { $0 == UInt8(ascii: ".") }.prefix { $0 != UInt8(ascii: ".") }
            if stem.count == 64, stem.allSatisfy({ Self.isHexDigit($0) }) { return tr("Imported image") }
            return String(decoding: last, as: UTF8.self)
        }
    }

    /// Printable ASCII but for what URLComponents refuses, and `%` (decoded) and brackets (IPv6) it parses.
    private static func isPlainByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x21...0x7E:
            switch byte {
            case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "{"), UInt8(ascii: "}"),
                UInt8(ascii: "|"), UInt8(ascii: "\\"), UInt8(ascii: "^"), UInt8(ascii: "`"), UInt8(ascii: "%"),
                UInt8(ascii: "["), UInt8(ascii: "]"):
                false
            default: true
            }
        default: false
        }
    }

    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        (0x61...0x7A).contains(byte | 0x20) || (0x30...0x39).contains(byte) || byte == UInt8(ascii: "+")
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte | 0x20)
    }
}
