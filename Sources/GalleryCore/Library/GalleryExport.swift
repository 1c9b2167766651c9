import Foundation

/// What an exported gallery is made of: a folder named after the gallery, its images as files
/// named in display order ("001 cat.jpg"), and `gallery.json` saying which file is which image.
/// Names are safe on any file system a person may copy the folder to (FAT and NTFS included).
public enum GalleryExport {
    public static let manifestFileName = "gallery.json"

    /// The file name of the image at `position` (0-based) of `count`: its number, zero-padded so
    /// that the files sort in display order everywhere, its label without the extension it had,
    /// and `fileExtension`, the one its bytes call for.
    public static func fileName(position: Int, count: Int, label: String, fileExtension: String) -> String {
        let digits = max(3, String(max(count, 1)).count)
        let number = String(repeating: "0", count: max(digits - String(position + 1).count, 0)) + String(position + 1)
        let ext = safeComponent(fileExtension.lowercased(), maxBytes: 16)
        let suffix = ext.isEmpty ? "" : "." + ext
        let stem = safeComponent(
            stripImageExtension(label), maxBytes: maxNameBytes - number.utf8.count - 1 - suffix.utf8.count)
        return (stem.isEmpty ? number : number + " " + stem) + suffix
    }

    /// The folder's name for a gallery: its name made safe, numbered ("Cats 2") when `taken`
    /// already holds it; compared without case, as FAT, NTFS and exFAT do.
    public static func folderName(for galleryName: String, taken: Set<String>, fallback: String) -> String {
        var base = safeComponent(galleryName, maxBytes: maxNameBytes - 8)
        if base.isEmpty { base = safeComponent(fallback, maxBytes: maxNameBytes - 8) }
        if reservedWindowsNames.contains(base.uppercased()) { base += "_" }
        let takenFolded = Set(taken.map { $0.lowercased() })
        guard takenFolded.contains(base.lowercased()) else { return base }
        var number = 2
        while takenFolded.contains("\(base) \(number)".lowercased()) { number += 1 }
        return "\(base) \(number)"
    }

    /// The name of the XMP sidecar beside the image file `fileName`: its name with `.xmp` for its
    /// extension (`001 cat.xmp`), where gThumb looks (digiKam reads it there too); nil when that is the
    /// image's own name (bytes of no known format, from an address ending in `.xmp`).
    public static func sidecarName(forFile fileName: String) -> String? {
        var stem = Substring(fileName)
        if let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex { stem = fileName[..<dot] }
        let name = String(stem) + ".xmp"
        return name == fileName ? nil : name
    }

    /// The extension a file whose bytes were not recognised keeps: the one its label has, else none.
    public static func labelExtension(_ label: String) -> String? {
        guard let dot = label.lastIndex(of: "."), dot != label.startIndex else { return nil }
        let ext = label[label.index(after: dot)...]
        guard (1...5).contains(ext.count), ext.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            return nil
        }
        return ext.lowercased()
    }

    // MARK: Safe names

    /// Bytes a name may take: ext4 and most others allow 255; eCryptfs home folders 143.
    static let maxNameBytes = 143

    /// Characters FAT, NTFS or exFAT refuse, or shells and file managers stumble on.
    private static let unsafeCharacters = Set("/\\:*?\"<>|")

    private static let reservedWindowsNames: Set<String> = Set(
        ["CON", "PRN", "AUX", "NUL"] + (1...9).flatMap { ["COM\($0)", "LPT\($0)"] })

    /// `text` as one path component: unsafe and control characters become "_", runs of
    /// white space one space, no leading dot (a hidden file) and no trailing dot or space
    /// (Windows drops them), at most `maxBytes` of UTF-8 cut between characters.
    static func safeComponent(_ text: String, maxBytes: Int) -> String {
        var result = ""
        var lastWasSpace = false
        for character in text {
            let isControl = character.unicodeScalars.contains {
                $0.properties.generalCategory == .control || $0.properties.generalCategory == .format
            }
            if character.isWhitespace {
                if !lastWasSpace && !result.isEmpty { result.append(" ") }
                lastWasSpace = true
                continue
            }
            lastWasSpace = false
            result.append(unsafeCharacters.contains(character) || isControl ? "_" : character)
        }
        while result.first == "." { result.removeFirst() }
        var cut = ""
        for character in result {
            guard cut.utf8.count + String(character).utf8.count <= max(maxBytes, 0) else { break }
            cut.append(character)
        }
        while let last = cut.last, last == "." || last == " " { cut.removeLast() }
        return cut
    }

    /// "cat.jpg" → "cat": the real extension replaces the one the address had.
    private static func stripImageExtension(_ label: String) -> String {
        guard let ext = labelExtension(label), ImageFormat.forFileExtension(ext) != nil,
            let dot = label.lastIndex(of: ".")
        else { return label }
        return String(label[..<dot])
    }
}

/// `gallery.json` in an exported folder: the gallery's name and, in display order, each image's
/// file (nil when it could not be exported), the address it came from, its aspect ratio, and where
/// known its origin, the user's note, what it looks like and the copies merged into it. Fields without a
/// value are left out, so a reader of the first version finds what it knew.
public struct ExportManifest: Equatable, Sendable {
    public struct Image: Equatable, Sendable {
        public var file: String?
        public var url: String
        public var aspectRatio: Double
        public var origin: Origin?
        public var note: String?
        public var likeness: Likeness?
        public var mergedCopies: [MergedCopy]

        public init(
            file: String?, url: String, aspectRatio: Double, origin: Origin? = nil, note: String? = nil,
            likeness: Likeness? = nil, mergedCopies: [MergedCopy] = []
        ) {
            self.file = file
            self.url = url
            self.aspectRatio = aspectRatio
            self.origin = origin
            self.note = note
            self.likeness = likeness
            self.mergedCopies = mergedCopies
        }

        /// The manifest's entry for `image`, written as `file`.
        public init(_ image: GalleryImage, file: String?) {
            self.init(
                file: file, url: image.url, aspectRatio: image.aspectRatio, origin: image.origin.flatMap(Origin.init),
                note: image.note, likeness: image.likeness, mergedCopies: image.mergedCopies)
        }

        var json: JSONValue {
            var fields: [String: JSONValue] = ["url": .string(url), "aspectRatio": .number(aspectRatio)]
            fields["file"] = file.map(JSONValue.string)
            fields["origin"] = origin.map { .object($0.fields.mapValues(JSONValue.string)) }
            fields["note"] = note.map(JSONValue.string)
            if let likeness {
                fields["fingerprint"] = .string(likeness.fingerprint.description)
                fields["palette"] = .array(likeness.palette.swatches.map(Self.json))
            }
            if !mergedCopies.isEmpty { fields["mergedCopies"] = .array(mergedCopies.map(\.json)) }
            return .object(fields)
        }

        /// A swatch as other programs read it: its share, its colour as sRGB (`#rrggbb`) and in Oklab.
        private static func json(_ swatch: Palette.Swatch) -> JSONValue {
            let (red, green, blue) = swatch.colour.srgb
            let hex = [red, green, blue].map { channel in
                let digits = String(Int((channel * 255).rounded()), radix: 16)
                return digits.count == 1 ? "0" + digits : digits
            }
            let colour = swatch.colour
            return .object([
                "share": .number(rounded(swatch.share)), "srgb": .string("#" + hex.joined()),
                "oklab": .array([colour.l, colour.a, colour.b].map { .number(rounded($0)) }),
            ])
        }

        /// `value` to three decimals: a palette's steps are coarser.
        private static func rounded(_ value: Float) -> Double { (Double(value) * 1000).rounded() / 1000 }
    }

    /// An image's `ImageOrigin` as the state file writes it (`ImageOrigin.knownFields`: the fields' names have
    /// one home), without the fields kept there for a newer version.
    public struct Origin: Equatable, Sendable {
        /// Each known field's text, by its name in the state file.
        public var fields: [String: String]

        /// nil when the origin holds none of the fields this version knows.
        public init?(_ origin: ImageOrigin) {
            let values = origin.knownFields
            guard !values.isEmpty else { return nil }
            fields = values.compactMapValues { value in
                guard case .string(let text) = value else { return nil }
                return text
            }
        }
    }

    public var version = 1
    public var name: String
    public var images: [Image]

    public init(name: String, images: [Image]) {
        self.name = name
        self.images = images
    }

    /// The file's text, laid out as the state file is.
    public func encoded() -> Data {
        JSONFile.text(
            .object(["version": .number(version), "name": .string(name), "images": .array(images.map(\.json))]))
    }
}
