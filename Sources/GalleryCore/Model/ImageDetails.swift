/// The fields an image may lack, packed, shared by the copies of one image until one of them changes: every text
/// (the origin's, the note, the original's format) in one string, the original's name as its 32 bytes, the numbers
/// inline. At a million images the fields each in its own string cost three times their text (issue 48); the values
/// (`ImageOrigin`, `KeptOriginal`…) are made when asked.
final class ImageDetails: Hashable, Sendable {
    /// The fields unpacked, as `GalleryImage` gives and takes them.
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

    /// The texts, in the order they stand in `text`.
    enum Slot: Int, CaseIterable {
        case added, link, page, pageTitle, altText, title, browserDescription, note, format
        /// The original's name when it is not 64 lowercase hexadecimal digits (set so by hand: the state file
        /// reads no other).
        case name
    }

    /// The bits of `present` past the slots'.
    private static let originBit: UInt16 = 1 << 14
    private static let originalBit: UInt16 = 1 << 15

    // In this order, the small fields fill what the larger ones leave between them: 176 bytes in all.
    let likeness: Likeness?
    let arrival: ImageOrigin.Arrival?
    /// A bit for each slot present (`1 << slot`), and `originBit`, `originalBit`.
    private let present: UInt16
    let animation: AnimationSummary?
    /// Where each slot's text ends in `text`'s UTF-8 (an absent one ends where the one before it ends).
    private let ends: InlineArray<10, UInt32>
    /// Every text present, one after the other.
    private let text: String
    /// The original's name as its 32 bytes, big-endian, when it is 64 lowercase hexadecimal digits.
    private let digest: (UInt64, UInt64, UInt64, UInt64)
    private let byteCount: Int
    private let pixelWidth: Int
    private let pixelHeight: Int
    let tags: [String]
    private let rarities: ImageDetailsRarities?

    /// Nil when `fields` holds nothing: an image without details has no box.
    init?(_ fields: Fields) {
        guard fields != Fields() else { return nil }
        var texts = InlineArray<10, String?>(repeating: nil)
        var present: UInt16 = 0
        if let origin = fields.origin {
            present |= Self.originBit
            texts[Slot.added.rawValue] = origin.added
            texts[Slot.link.rawValue] = origin.link
            texts[Slot.page.rawValue] = origin.page
            texts[Slot.pageTitle.rawValue] = origin.pageTitle
            texts[Slot.altText.rawValue] = origin.altText
            texts[Slot.title.rawValue] = origin.title
            texts[Slot.browserDescription.rawValue] = origin.browserDescription
        }
        texts[Slot.note.rawValue] = fields.note
        var digest: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        if let original = fields.original {
            present |= Self.originalBit
            texts[Slot.format.rawValue] = original.format
            if let parsed = OriginalDigest(name: original.sha256) {
                digest = parsed.words
            } else {
                texts[Slot.name.rawValue] = original.sha256
            }
        }
        var textCount = 0
        for index in texts.indices { textCount += texts[index]?.utf8.count ?? 0 }
        var text = ""
        text.reserveCapacity(textCount)
        var ends = InlineArray<10, UInt32>(repeating: 0)
        for index in texts.indices {
            if let slotText = texts[index] {
                present |= 1 << index
                text.append(slotText)
            }
            ends[index] = UInt32(text.utf8.count)
        }
        self.text = text
        self.ends = ends
        self.present = present
        self.digest = digest
        arrival = fields.origin?.arrival
        byteCount = fields.original?.byteCount ?? 0
        pixelWidth = fields.original?.pixelWidth ?? 0
        pixelHeight = fields.original?.pixelHeight ?? 0
        tags = fields.tags
        likeness = fields.likeness
        animation = fields.animation
        rarities = ImageDetailsRarities(
            mergedCopies: fields.mergedCopies, unknownFields: fields.unknownFields,
            originUnknownFields: fields.origin?.unknownFields ?? [:],
            originalUnknownFields: fields.original?.unknownFields ?? [:])
    }

    /// These details with `likeness` and `animation` in place of theirs, sharing their packed texts: the measurements
    /// an image gets after it arrives (a million of them, at the first launch of a large library) cost no packing.
    /// Nil when neither is set: details left with nothing are no details.
    func measured(likeness: Likeness?, animation: AnimationSummary?) -> ImageDetails? {
        guard likeness != nil || animation != nil else { return nil }
        return ImageDetails(copying: self, likeness: likeness, animation: animation)
    }

    private init(copying other: ImageDetails, likeness: Likeness?, animation: AnimationSummary?) {
        self.likeness = likeness
        self.animation = animation
        arrival = other.arrival
        present = other.present
        ends = other.ends
        text = other.text
        digest = other.digest
        byteCount = other.byteCount
        pixelWidth = other.pixelWidth
        pixelHeight = other.pixelHeight
        tags = other.tags
        rarities = other.rarities
    }

    /// The length of the text of `slot` in UTF-8, without making a view of it; nil when absent.
    func textCount(_ slot: Slot) -> Int? {
        guard present & (1 << slot.rawValue) != 0 else { return nil }
        return Int(ends[slot.rawValue]) - (slot == .added ? 0 : Int(ends[slot.rawValue - 1]))
    }

    /// The text of `slot`, a view into the packed text (no copy); nil when absent.
    func text(_ slot: Slot) -> Substring? {
        guard present & (1 << slot.rawValue) != 0 else { return nil }
        let utf8 = text.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: slot == .added ? 0 : Int(ends[slot.rawValue - 1]))
        let end = utf8.index(utf8.startIndex, offsetBy: Int(ends[slot.rawValue]))
        return Substring(utf8[start..<end])
    }

    private func string(_ slot: Slot) -> String? { text(slot).map(String.init) }

    var mergedCopies: [MergedCopy] { rarities?.mergedCopies ?? [] }

    var unknownFields: [String: RawJSON] { rarities?.unknownFields ?? [:] }

    var note: String? { string(.note) }

    var hasOrigin: Bool { present & Self.originBit != 0 }

    var originUnknownFields: [String: RawJSON] { rarities?.originUnknownFields ?? [:] }

    var origin: ImageOrigin? {
        guard hasOrigin else { return nil }
        var origin = ImageOrigin(
            arrival: arrival, added: string(.added), link: string(.link), page: string(.page),
            altText: string(.altText), title: string(.title), browserDescription: string(.browserDescription),
            pageTitle: string(.pageTitle))
        origin.unknownFields = originUnknownFields
        return origin
    }

    var original: KeptOriginal? {
        guard present & Self.originalBit != 0 else { return nil }
        var original = KeptOriginal(
            sha256: string(.name) ?? Self.name(of: digest), byteCount: byteCount, pixelWidth: pixelWidth,
            pixelHeight: pixelHeight, format: string(.format))
        original.unknownFields = rarities?.originalUnknownFields ?? [:]
        return original
    }

    /// The original's name as its 32 bytes, without making its text; nil when it keeps none, or one named otherwise.
    var originalDigest: OriginalDigest? {
        guard present & Self.originalBit != 0, present & 1 << Slot.name.rawValue == 0 else { return nil }
        return OriginalDigest(words: digest)
    }

    var fields: Fields {
        Fields(
            original: original, origin: origin, note: note, tags: tags, likeness: likeness, animation: animation,
            mergedCopies: mergedCopies, unknownFields: unknownFields)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The 64 lowercase hexadecimal digits of `digest`.
    private static func name(of digest: (UInt64, UInt64, UInt64, UInt64)) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64)
        for word in [digest.0, digest.1, digest.2, digest.3] {
            for shift in stride(from: 60, through: 0, by: -4) {
                bytes.append(hexDigits[Int(word >> UInt64(shift) & 0xF)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Equal when every field is: each text as a `String` compares (canonically equivalent), not byte by byte.
    static func == (left: ImageDetails, right: ImageDetails) -> Bool {
        if left === right { return true }
        guard left.present == right.present, left.arrival == right.arrival, left.digest == right.digest,
            left.byteCount == right.byteCount, left.pixelWidth == right.pixelWidth,
            left.pixelHeight == right.pixelHeight, left.likeness == right.likeness, left.animation == right.animation,
            left.tags == right.tags, left.rarities == right.rarities
        else { return false }
        return Slot.allCases.allSatisfy { left.text($0) == right.text($0) }
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(present)
        hasher.combine(arrival)
        hasher.combine(digest.0)
        hasher.combine(digest.1)
        hasher.combine(digest.2)
        hasher.combine(digest.3)
        hasher.combine(byteCount)
        hasher.combine(pixelWidth)
        hasher.combine(pixelHeight)
        hasher.combine(likeness)
        hasher.combine(animation)
        hasher.combine(tags)
        hasher.combine(rarities)
        // A text hashes as a String does (its bytes then 0xFF when ASCII, as String's fast path), without the
        // normalization a Substring of a packed text that is not all ASCII would go through for each.
        let hashedBytes: Bool? = text.utf8.withContiguousStorageIfAvailable { buffer in
            var start = 0
            for slot in Slot.allCases {
                let end = Int(ends[slot.rawValue])
                defer { start = end }
                guard present & (1 << slot.rawValue) != 0 else { continue }
                let bytes = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[start..<end]))
                guard bytes.allSatisfy({ $0 < 0x80 }) else {
                    hasher.combine(text(slot)!)
                    continue
                }
                hasher.combine(bytes: bytes)
                hasher.combine(0xFF as UInt8)
            }
            return true
        }
        if hashedBytes == nil {
            for slot in Slot.allCases {
                if let text = text(slot) { hasher.combine(text) }
            }
        }
    }
}
