import Foundation

/// What an exported image's XMP sidecar says about it (GalleryIO's `XMPPacket` writes it), in the fields
/// image managers read: gThumb and digiKam show `dc:title` and `dc:description` as the title and caption.
public struct ExportSidecar: Equatable, Sendable {
    /// `dc:source`: the address the image came from; none for a `data:` address, which is the image itself.
    public var source: String?
    /// `dc:title`: the image's title, else its alternative text, else what the browser called it.
    public var title: String?
    /// `dc:description`: the user's note, else the alternative text.
    public var imageDescription: String?
    /// `dc:relation`: the page it was on and the link around it, where known.
    public var relations: [String]
    /// `xmp:CreateDate`: when it was added to the library, ISO 8601 in UTC; none when the state file's
    /// value is not a date (it is kept as written there).
    public var added: String?
    /// `dc:format`: the media type its bytes are (`image/png`).
    public var mediaType: String?

    public init(image: GalleryImage, mediaType: String?) {
        let origin = image.origin
        source = image.url.hasPrefix("data:") ? nil : Self.text(image.url)
        title = Self.text(origin?.title) ?? Self.text(origin?.altText) ?? Self.text(origin?.browserDescription)
        imageDescription = Self.text(image.note) ?? Self.text(origin?.altText)
        var relations: [String] = []
        for address in [origin?.page, origin?.link].compactMap({ Self.text($0) }) where !relations.contains(address) {
            relations.append(address)
        }
        self.relations = relations
        added = origin?.added.flatMap(Self.utcDate)
        self.mediaType = mediaType
    }

    /// `text` without what XML 1.0 cannot carry (control characters but tab and line breaks, U+FFFE,
    /// U+FFFF), which would make the whole sidecar unreadable; nil when nothing else is left.
    static func text(_ text: String?) -> String? {
        guard let text else { return nil }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let allowed =
                value == 0x09 || value == 0x0A || value == 0x0D || (0x20...0xFFFD).contains(value) || value >= 0x10000
            if allowed && !(0x7F...0x9F).contains(value) { scalars.append(scalar) }
        }
        let cleaned = String(scalars)
        return cleaned.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : cleaned
    }

    /// An ISO 8601 date and time, with or without fractional seconds, as `2026-11-26T22:40:00Z`.
    static func utcDate(_ text: String) -> String? {
        let plain = ISO8601DateFormatter()
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard let date = plain.date(from: text) ?? fractional.date(from: text) else { return nil }
        return plain.string(from: date)
    }
}
