/// An image format this app knows by name: its media types, its file extensions, how its bytes
/// begin, and the Debian package whose gdk-pixbuf loader decodes it when gdk-pixbuf does not by
/// itself, so an image that fails to decode can say what would show it ("AVIF images need
/// libavif-gdk-pixbuf") rather than "not an image". `all` is the one table every other part reads.
public struct ImageFormat: Equatable, Sendable {
    /// How a format's first bytes look.
    public indirect enum Signature: Equatable, Sendable {
        /// These bytes at this offset.
        case bytes(at: Int, [UInt8])
        case all([Signature])
        case any([Signature])
        /// At least this many bytes (a BMP header alone is 26).
        case minimumLength(Int)
        /// An XML document whose root is `<svg`, possibly after an XML declaration, comments or a doctype.
        case svgDocument

        func matches(_ b: [UInt8]) -> Bool {
            switch self {
            case .bytes(let offset, let signature):
                b.count >= offset + signature.count && b[offset..<offset + signature.count].elementsEqual(signature)
            case .all(let parts): parts.allSatisfy { $0.matches(b) }
            case .any(let parts): parts.contains { $0.matches(b) }
            case .minimumLength(let count): b.count >= count
            case .svgDocument: Self.looksLikeSVG(b)
            }
        }

        static func ascii(at offset: Int, _ text: String) -> Signature { .bytes(at: offset, Array(text.utf8)) }

        /// An ISO base media file (`ftyp` box) of one of these brands: AVIF, HEIF.
        static func isoBrand(_ brands: [String]) -> Signature {
            .all([ascii(at: 4, "ftyp"), .any(brands.map { ascii(at: 8, $0) })])
        }

        /// The root element is `<svg`: an XML file that only holds an `<svg` somewhere (a config, an HTML page) is
        /// no image, and is never offered as one.
        private static func looksLikeSVG(_ b: [UInt8]) -> Bool {
            var text = String(decoding: b, as: UTF8.self).lowercased()[...]
            if text.hasPrefix("\u{FEFF}") { text = text.dropFirst() }
            while true {
                text = text.drop { $0.isWhitespace }
                let ends: [String]
                if text.hasPrefix("<?") {
                    ends = ["?>"]
                } else if text.hasPrefix("<!--") {
                    ends = ["-->"]
                } else if text.hasPrefix("<!doctype") {
                    // An internal subset (`[ <!ENTITY …> ]`) may hold `>` before the doctype's own.
                    let opensSubset = text.prefix { $0 != ">" }.contains("[")
                    ends = opensSubset ? ["]", ">"] : [">"]
                } else {
                    break
                }
                for end in ends {
                    guard let range = text.range(of: end) else { return false }
                    text = text[range.upperBound...]
                }
            }
            guard text.hasPrefix("<svg") else { return false }
            guard let next = text.dropFirst(4).first else { return true }
            return next == ">" || next == "/" || next == ":" || next.isWhitespace
        }
    }

    /// As people write it: "AVIF", "JPEG XL".
    public let name: String
    /// Lowercase; the first is the one sniffing answers, the others name the same format.
    public let mimeTypes: [String]
    /// Lowercase, without the dot; the first is the one a file of this format is given.
    public let fileExtensions: [String]
    /// nil for a format told only by its name (compressed SVG: its bytes are gzip's).
    public let signature: Signature?
    /// nil for the formats gdk-pixbuf always decodes (PNG, JPEG, GIF, BMP, TIFF, ICO).
    public let loaderPackage: String?

    /// The media type sniffing answers: "image/jpeg".
    public var mimeType: String { mimeTypes[0] }
    /// The extension a file of this format is given: "jpg".
    public var fileExtension: String { fileExtensions[0] }

    /// Every format, in the order sniffing tries them (an ICO's first bytes can also start an AVIF).
    public static let all: [ImageFormat] = [
        ImageFormat(
            name: "PNG", mimeTypes: ["image/png", "image/apng"], fileExtensions: ["png", "apng"],
            signature: .bytes(at: 0, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), loaderPackage: nil),
        ImageFormat(
            name: "JPEG", mimeTypes: ["image/jpeg", "image/jpg", "image/pjpeg"],
            fileExtensions: ["jpg", "jpeg", "jpe", "jfif"], signature: .bytes(at: 0, [0xFF, 0xD8, 0xFF]),
            loaderPackage: nil),
        ImageFormat(
            name: "GIF", mimeTypes: ["image/gif"], fileExtensions: ["gif"],
            signature: .any([.ascii(at: 0, "GIF87a"), .ascii(at: 0, "GIF89a")]), loaderPackage: nil),
        ImageFormat(
            name: "WebP", mimeTypes: ["image/webp"], fileExtensions: ["webp"],
            signature: .all([.ascii(at: 0, "RIFF"), .ascii(at: 8, "WEBP")]),
            loaderPackage: "webp-pixbuf-loader"),
        ImageFormat(
            name: "BMP", mimeTypes: ["image/bmp", "image/x-bmp", "image/x-ms-bmp"], fileExtensions: ["bmp"],
            signature: .all([.ascii(at: 0, "BM"), .minimumLength(26)]), loaderPackage: nil),
        ImageFormat(
            name: "TIFF", mimeTypes: ["image/tiff"], fileExtensions: ["tif", "tiff"],
            signature: .any([.bytes(at: 0, [0x49, 0x49, 0x2A, 0x00]), .bytes(at: 0, [0x4D, 0x4D, 0x00, 0x2A])]),
            loaderPackage: nil),
        ImageFormat(
            name: "ICO", mimeTypes: ["image/x-icon", "image/vnd.microsoft.icon"], fileExtensions: ["ico"],
            signature: .any([
                .bytes(at: 0, [0x00, 0x00, 0x01, 0x00]),
                .bytes(at: 0, [0x00, 0x00, 0x02, 0x00]),
            ]),
            loaderPackage: nil),
        ImageFormat(
            name: "AVIF", mimeTypes: ["image/avif"], fileExtensions: ["avif"],
            signature: .isoBrand(["avif", "avis"]), loaderPackage: "libavif-gdk-pixbuf"),
        ImageFormat(
            name: "HEIF", mimeTypes: ["image/heif", "image/heic"], fileExtensions: ["heic", "heif"],
            signature: .isoBrand(["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]),
            loaderPackage: "heif-gdk-pixbuf"),
        ImageFormat(
            name: "JPEG XL", mimeTypes: ["image/jxl"], fileExtensions: ["jxl"],
            signature: .any([
                .bytes(at: 0, [0xFF, 0x0A]),  // a bare codestream, or the container
                .bytes(
                    at: 0,
                    [
                        0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20,
                        0x0D, 0x0A, 0x87, 0x0A,
                    ]),
            ]),
            loaderPackage: "libjxl-gdk-pixbuf"),
        ImageFormat(
            name: "SVG", mimeTypes: ["image/svg+xml"], fileExtensions: ["svg"], signature: .svgDocument,
            loaderPackage: "librsvg2-common"),
        ImageFormat(
            name: "SVGZ", mimeTypes: ["image/svg+xml-compressed"], fileExtensions: ["svgz"], signature: nil,
            loaderPackage: "librsvg2-common"),
    ]

    /// How many of an image's first bytes sniffing reads.
    public static let sniffedByteCount = 4096

    /// The format of `bytes`, from their first bytes (only the first `sniffedByteCount` are read).
    public static func sniff(_ bytes: some Collection<UInt8>) -> ImageFormat? {
        let head = Array(bytes.prefix(sniffedByteCount))
        return all.first { $0.signature?.matches(head) ?? false }
    }

    /// The format of a media type, in any of its spellings ("image/JPG"); nil for one not in the table.
    public static func forMIMEType(_ mimeType: String) -> ImageFormat? {
        let type = mimeType.lowercased()
        return all.first { $0.mimeTypes.contains(type) }
    }

    /// The extension a file of this media type is given ("image/jpeg": "jpg"); nil for one not in the table.
    public static func fileExtension(forMIMEType mimeType: String) -> String? {
        forMIMEType(mimeType)?.fileExtension
    }

    /// The format a file extension (without the dot, any case) names; nil for one not in the table.
    public static func forFileExtension(_ fileExtension: String) -> ImageFormat? {
        let ext = fileExtension.lowercased()
        return all.first { $0.fileExtensions.contains(ext) }
    }

    /// Whether sniffing recognises this media type's bytes: such a label on bytes it does not
    /// recognise is a lie.
    public static func hasKnownSignature(_ mimeType: String) -> Bool {
        forMIMEType(mimeType)?.signature != nil
    }
}
