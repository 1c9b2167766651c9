import Foundation

/// A gallery's search entries, in gallery order, kept compactly: a record of fixed size for each image and one
/// buffer of bytes for all their texts, formats, tags and domains, where an entry of its own held each in a heap
/// block of its own. Searches read them in place.
public struct SearchEntries: Sendable {
    /// What an entry keeps beside its bytes.
    struct Record: Sendable {
        var id: ImageID
        /// When it was added: a text of another shape than the app writes is in `otherAddedTexts`.
        var added: SearchAddedTime
        /// Tells whether the image changed since it was indexed.
        var sourceHash: Int
        /// Where the entry's bytes start in `bytes`: its folded text, then its facts (see `append`), up to the next
        /// entry's start.
        var start: Int
        var textCount: UInt32
        var orientation: SearchEntry.Orientation
        var hasNote: Bool
        var isAnimated: Bool
        /// Its likeness's palette, 0 for none measured yet.
        var palette: UInt64
    }

    private var records: [Record] = []
    /// The times added that are not of the shape the app writes (`SearchAddedTime.otherText`), by image: views into
    /// the images' packed texts (`ImageDetails`), shared rather than copied.
    private var otherAddedTexts: [ImageID: Substring] = [:]
    private var bytes: [UInt8] = []
    /// The colours of the records' palettes, block by block, so that a colour search skips the blocks without it.
    private var colours = PaletteBlocks()
    /// What the texts of each block of entries hold, so that a search skips the blocks without its words.
    private(set) var textBlocks = TextBlocks()
    /// About the bytes of the buffer that no entry reads any more (an entry written again, or its image gone): the
    /// buffer is copied without them once they are an eighth of it.
    private var unusedBytes = 0

    public init() {}

    public var count: Int { records.count }
    public var indices: Range<Int> { records.indices }

    /// The memory the entries hold, in bytes: their records, their buffer and their palettes' blocks, as allocated.
    public var allocatedBytes: Int {
        records.capacity * MemoryLayout<Record>.stride + bytes.capacity + colours.allocatedBytes
            + textBlocks.allocatedBytes
    }

    /// Read in place, as `textCount(at:)`: a record copied out for one field (for a search's every result) retained
    /// and released its id.
    public func id(at position: Int) -> ImageID { records.withUnsafeBufferPointer { $0.baseAddress![position].id } }

    /// The length of the entry's folded text: what looking for a word in it reads at most.
    func textCount(at position: Int) -> Int {
        records.withUnsafeBufferPointer { Int($0.baseAddress![position].textCount) }
    }

    /// Makes room for `count` more entries of `bytes` bytes in all (`estimatedByteCount`), so that they are appended
    /// in place without a buffer's doubling (which leaves up to half of it unused, and holds the old and the new at
    /// once while it copies).
    mutating func reserveCapacity(adding count: Int, bytes byteCount: Int) {
        records.reserveCapacity(records.count + count)
        bytes.reserveCapacity(bytes.count + byteCount)
        colours.reserveCapacity(adding: count)
    }

    /// The longest name of a format read from an address's extension: counting a format as that long is cheaper
    /// than looking its name up.
    private static let longestFormatName = ImageFormat.all.map(\.name.utf8.count).max() ?? 0

    /// About the bytes `append` writes for `image`, rarely fewer: its text's UTF-8 (folding keeps an ASCII text's
    /// length and shortens most others), its format and where its tags and domains stand.
    static func estimatedByteCount(of image: GalleryImage) -> Int {
        func count(_ field: (some StringProtocol)?) -> Int { field.map { $0.utf8.count + 1 } ?? 0 }
        func count(_ slot: ImageDetails.Slot) -> Int { image.detailTextCount(slot).map { $0 + 1 } ?? 0 }
        var text = count(searchedLabel(of: image)) + count(image.url) + count(.note)
        text += count(.link) + count(.page) + count(.altText) + count(.title) + count(.browserDescription)
        let addresses =
            1 + (image.detailTextCount(.link) == nil ? 0 : 1) + (image.detailTextCount(.page) == nil ? 0 : 1)
        let tags = image.tags
        for tag in tags { text += tag.utf8.count + 1 }
        let format = 1 + (image.detailTextCount(.format) ?? Self.longestFormatName)
        let tagFacts = tags.isEmpty ? 1 : 1 + (tags.count + 1) * varintCount(text)
        return text + format + tagFacts + 1 + addresses * 2 * varintCount(text)
    }

    /// The image's label when it finds what its address does not: a label in ASCII whose bytes the address holds
    /// (the file's name in nearly every address) is left out of the text, where each word of it is found in the
    /// address, folded alike (ASCII folds byte by byte), so an entry need not hold the same words twice.
    static func searchedLabel(of image: GalleryImage) -> String? {
        var label = image.label
        var url = image.url
        let inAddress = label.withUTF8 { label in
            label.allSatisfy { $0 < 0x80 }
                && url.withUTF8 { url in
                    // From the end, where the file's name stands.
                    label.isEmpty
                        || stride(from: url.count - label.count, through: 0, by: -1).contains {
                            memcmp(url.baseAddress! + $0, label.baseAddress!, label.count) == 0
                        }
                }
        }
        return inAddress ? nil : label
    }

    /// The texts an entry holds after the image's addresses, in this order.
    private static let describingSlots: [ImageDetails.Slot] = [.altText, .title, .browserDescription, .note]

    /// Appends the entry of `image`: its label (unless its address holds it: `searchedLabel`), addresses, alt text,
    /// title, description, note and tags folded and each followed by a line break (which no query word holds, so a word never matches across two fields), then
    /// its facts: its format (its length plus one, 0 for none, then its bytes), its tags (their count, then where
    /// the first stands in the text and each one's length: they follow each other), and the domains of its
    /// address, link and page (their count, then where each stands in the text and its length), each number in
    /// 7-bit groups, lowest first.
    public mutating func append(_ image: GalleryImage, folding: inout SearchFolding) {
        append(write(image, folding: &folding))
    }

    /// Writes the entry of `image` at the buffer's end (see `append`) and returns its record.
    private mutating func write(_ image: GalleryImage, folding: inout SearchFolding) -> Record {
        let start = bytes.count
        if let label = Self.searchedLabel(of: image) {
            folding.append(label, to: &bytes)
            bytes.append(0x0A)
        }
        var domains: (Range<Int>?, Range<Int>?, Range<Int>?)
        domains.0 = appendAddress(image.url[...], folding: &folding)
        if let link = image.detailText(.link) { domains.1 = appendAddress(link, folding: &folding) }
        if let page = image.detailText(.page) { domains.2 = appendAddress(page, folding: &folding) }
        for slot in Self.describingSlots {
            guard let field = image.detailText(slot) else { continue }
            folding.append(field, to: &bytes)
            bytes.append(0x0A)
        }
        let tags = image.tags
        let tagsStart = bytes.count
        var tagCounts: [Int] = []
        if !tags.isEmpty { tagCounts.reserveCapacity(tags.count) }
        for tag in tags {
            let tagStart = bytes.count
            folding.append(tag, to: &bytes)
            tagCounts.append(bytes.count - tagStart)
            bytes.append(0x0A)
        }
        let textCount = bytes.count - start
        if let format = Self.format(of: image) {
            appendVarint(format.utf8.count + 1)
            bytes.append(contentsOf: format.utf8)
        } else {
            appendVarint(0)
        }
        appendVarint(tagCounts.count)
        if !tagCounts.isEmpty {
            appendVarint(tagsStart - start)
            for count in tagCounts { appendVarint(count) }
        }
        let found = [domains.0, domains.1, domains.2].compactMap(\.self)
        appendVarint(found.count)
        for domain in found {
            appendVarint(domain.lowerBound - start)
            appendVarint(domain.count)
        }
        let ratio = image.displayAspectRatio
        let addedText = image.detailText(.added)
        let added = SearchAddedTime(addedText)
        if added.isOtherText {
            otherAddedTexts[image.id] = addedText
        } else if !otherAddedTexts.isEmpty {
            otherAddedTexts[image.id] = nil
        }
        return Record(
            id: image.id, added: added, sourceHash: image.hashValue, start: start,
            textCount: UInt32(textCount),
            orientation: ratio > 1.05 ? .landscape : ratio < 0.95 ? .portrait : .square,
            hasNote: image.detailTextCount(.note) != nil, isAnimated: image.animation?.isAnimated ?? false,
            palette: image.likeness?.palette.rawValue ?? 0)
    }

    /// The format's name in lowercase (`png`, `webp`…), from the kept original or else the address's extension.
    private static func format(of image: GalleryImage) -> String? {
        image.detailText(.format)?.lowercased()
            ?? SearchEntry.fileExtension(of: image.url).flatMap(ImageFormat.forFileExtension)?.name.lowercased()
    }

    /// Gives back the room left unused when the entries outgrew the room made for them (their text folded longer
    /// than it was: `և` is `եւ`), and their buffer doubled: they are copied into room of their size.
    mutating func releaseUnusedRoom() {
        restateTextBlocks()
        guard bytes.capacity - bytes.count > bytes.count / 8 else { return }
        var fitting: [UInt8] = []
        fitting.reserveCapacity(bytes.count)
        fitting.append(contentsOf: bytes)
        bytes = fitting
    }

    /// Appends the entry at `position` of `other` as it is (its image did not change).
    mutating func append(_ position: Int, of other: SearchEntries) {
        var record = other.records[position]
        record.start = bytes.count
        if record.added.isOtherText { otherAddedTexts[record.id] = other.otherAddedTexts[record.id] }
        bytes.append(contentsOf: other.bytes[other.records[position].start..<other.end(at: position)])
        append(record)
    }

    private mutating func append(_ record: Record) {
        records.append(record)
        colours.append(record.palette)
        let count = records.count
        if count - textBlocks.coveredCount >= TextBlocks.blockSize {
            withTexts { blocks, text in blocks.coverWholeBlocks(to: count, text: text) }
        }
    }

    /// Calls `body` with the text blocks and the folded text of each position, read in place.
    private mutating func withTexts(
        _ body: (inout TextBlocks, (Int) -> UnsafeBufferPointer<UInt8>) -> Void
    ) {
        // Copies of the arrays (shared, not copied) leave `self` free for the blocks' change.
        let bytes = self.bytes
        let records = self.records
        bytes.withUnsafeBufferPointer { bytes in
            records.withUnsafeBufferPointer { records in
                body(&textBlocks) { position in
                    let start = records[position].start
                    return UnsafeBufferPointer(rebasing: bytes[start..<start + Int(records[position].textCount)])
                }
            }
        }
    }

    /// Makes again the text blocks of the entries written again or moved, and covers the last ones.
    private mutating func restateTextBlocks() {
        let count = records.count
        withTexts { blocks, text in
            blocks.remake(text: text)
            blocks.cover(to: count, text: text)
        }
    }

    /// The length of the buffer of all the entries' bytes, those no entry reads any more included.
    var byteCount: Int { bytes.count }

    /// Where the entry at `position` starts in the buffer.
    func start(at position: Int) -> Int { records[position].start }

    /// The bytes the entry at `position` takes in the buffer.
    func byteCount(at position: Int) -> Int { end(at: position) - records[position].start }

    /// Where the entry at `position` ends in the buffer: past its facts (entries written again stand at its end, out
    /// of gallery order, so the next record's start does not tell).
    private func end(at position: Int) -> Int {
        var index = records[position].start + Int(records[position].textCount)
        let format = readVarint(&index)
        index += max(format - 1, 0)
        let tagCount = readVarint(&index)
        if tagCount > 0 {
            for _ in 0...tagCount { _ = readVarint(&index) }
        }
        for _ in 0..<2 * readVarint(&index) { _ = readVarint(&index) }
        return index
    }

    /// Follows a change of the gallery to `cells`, in place and at about the cost of the change: the entries of the
    /// images that stayed are kept (the records of those between the first and the last that moved or went are put
    /// in their new order; those before and after are only compared by id), and only the images that came or changed
    /// are folded, their bytes written at the buffer's end. The changed images are those of `changed`, or when it is
    /// nil those that hash otherwise than when they were indexed.
    public mutating func follow(_ cells: [GalleryCell], changed: Set<ImageID>?) {
        let firstChanged = reorder(to: cells)
        let written = positionsToWrite(of: cells, changed: changed)
        guard let firstWritten = written.first?.position else {
            restateColours(from: firstChanged)
            restateTextBlocks()
            return
        }
        var room = 0
        for (index, _) in written { room += cells[index].image.map { Self.estimatedByteCount(of: $0) } ?? 0 }
        if bytes.count + room > bytes.capacity {
            // Room for more than these, but not the doubling an append would make: the rest of the room is taken
            // by later edits.
            bytes.reserveCapacity(bytes.count + max(room, bytes.count / 16))
        }
        write(written, of: cells)
        restateColours(from: min(firstChanged, firstWritten))
        restateTextBlocks()
        if unusedBytes > bytes.count / 8 { reclaimUnusedBytes() }
    }

    /// What `rewrite` did.
    public enum Rewrite: Equatable {
        /// The entries do not stand at their cells' indexes: nothing was written (then `follow`).
        case notInPlace
        /// Only what images are made of changed in the entries written again (a palette, whether it moves, a kept
        /// original's format): what words, tags, sites, dates, shapes and notes find is as it was.
        case recordsOnly
        /// Something else changed in them too.
        case entries
    }

    /// Writes again the entries of the images at `changedCells` (ascending), where no cell came, went or moved and
    /// the gallery holds no placeholder, so that each image's entry stands at its cell's index: the others, and the
    /// colours of the blocks that hold none of these, stay as they are. Changes nothing when the entries do not stand
    /// so (`.notInPlace`: then `follow`).
    public mutating func rewrite(_ changedCells: [Int], of cells: [GalleryCell]) -> Rewrite {
        guard standAtTheirCells(changedCells, of: cells) else { return .notInPlace }
        let room = changedCells.reduce(0) { $0 + (cells[$1].image.map { Self.estimatedByteCount(of: $0) } ?? 0) }
        if bytes.count + room > bytes.capacity { bytes.reserveCapacity(bytes.count + max(room, bytes.count / 16)) }
        let onlyRecords = write(changedCells.map { ($0, $0) }, of: cells)
        restateColours(ofBlocksHolding: changedCells)
        restateTextBlocks()
        if unusedBytes > bytes.count / 8 { reclaimUnusedBytes() }
        return onlyRecords ? .recordsOnly : .entries
    }

    /// Sets what was measured of the images at `changedCells` (ascending) in their records: whether each moves, its
    /// palette. Their texts and facts are as they were (`GalleryLibrary.onlyMeasuresChanged`), so nothing is folded
    /// again: the background measures thousands of images a second in a large library, on the GTK thread's time.
    /// Changes nothing and returns false when the entries do not stand at their cells' indexes (then `rewrite`).
    public mutating func recordMeasures(_ changedCells: [Int], of cells: [GalleryCell]) -> Bool {
        guard standAtTheirCells(changedCells, of: cells) else { return false }
        for position in changedCells {
            guard let image = cells[position].image else { continue }
            records[position].isAnimated = image.animation?.isAnimated ?? false
            records[position].palette = image.likeness?.palette.rawValue ?? 0
            records[position].sourceHash = image.hashValue
        }
        restateColours(ofBlocksHolding: changedCells)
        return true
    }

    /// Whether the images at `changedCells` each have their entry at their cell's index.
    private func standAtTheirCells(_ changedCells: [Int], of cells: [GalleryCell]) -> Bool {
        records.count == cells.count
            && changedCells.allSatisfy {
                $0 < records.count && records[$0].id == cells[$0].id && cells[$0].image != nil
            }
    }

    /// Sums up the palettes again of the blocks that hold these positions (ascending), written in place.
    private mutating func restateColours(ofBlocksHolding positions: [Int]) {
        var restated = -1
        for position in positions where position / PaletteBlocks.blockSize != restated {
            restated = position / PaletteBlocks.blockSize
            let start = restated * PaletteBlocks.blockSize
            colours.restate(
                blockOf: start,
                with: records[start..<min(start + PaletteBlocks.blockSize, records.count)].map(\.palette))
        }
    }

    /// Takes in images that arrived where nothing else changed, each at its position among the entries once all are
    /// in (ascending): their entries written at the buffer's end, the others left as they are, and only the colours
    /// and text blocks from the first of them on made again, so that an arrival costs what arrived, not the gallery.
    /// Returns false, changing nothing, when the positions do not fit the entries (then `follow`).
    public mutating func insert(_ arrived: [(position: Int, image: GalleryImage)]) -> Bool {
        guard let first = arrived.first?.position,
            arrived.indices.allSatisfy({
                arrived[$0].position <= records.count + $0
                    && ($0 == 0 || arrived[$0 - 1].position < arrived[$0].position)
            })
        else { return false }
        let room = arrived.reduce(0) { $0 + Self.estimatedByteCount(of: $1.image) }
        if bytes.count + room > bytes.capacity { bytes.reserveCapacity(bytes.count + max(room, bytes.count / 16)) }
        if records.count + arrived.count > records.capacity {
            records.reserveCapacity(records.count + max(arrived.count, records.count / 16))
        }
        var folding = SearchFolding()
        for (position, image) in arrived {
            records.insert(write(image, folding: &folding), at: position)
            textBlocks.replace(position..<position, count: 1)
            textBlocks.invalidate(position)
        }
        restateColours(from: first)
        restateTextBlocks()
        return true
    }

    /// Folds the images of these cells into the entries at these positions, their bytes written at the buffer's end.
    /// Returns whether each of them had an entry whose text and facts other than records are what they are now.
    @discardableResult
    private mutating func write(_ written: [(cell: Int, position: Int)], of cells: [GalleryCell]) -> Bool {
        var folding = SearchFolding()
        var onlyRecords = true
        for (index, position) in written {
            guard let image = cells[index].image else { continue }
            let old = records[position]
            if old.start >= 0 { unusedBytes += byteCount(at: position) }
            let record = write(image, folding: &folding)
            records[position] = record
            // A likeness measured or a ratio corrected leaves the text, and its block, as they were.
            let sameText =
                old.start >= 0
                && bytes[old.start..<old.start + Int(old.textCount)].elementsEqual(
                    bytes[record.start..<record.start + Int(record.textCount)])
            if !sameText { textBlocks.invalidate(position) }
            onlyRecords =
                onlyRecords && sameText && old.added == record.added && !record.added.isOtherText
                && old.orientation == record.orientation
                && old.hasNote == record.hasNote
        }
        return onlyRecords
    }

    /// Puts the records in the order of `cells`' images: those before the first and after the last that differ are
    /// only compared by id, those between are looked up by id, and an image new to the entries gets a record with a
    /// start of -1, to be written. Returns the first position whose record changed (`count` when none did).
    private mutating func reorder(to cells: [GalleryCell]) -> Int {
        var cellStart = 0
        var recordStart = 0
        while cellStart < cells.count, recordStart < records.count {
            if case .placeholder = cells[cellStart].content {
                cellStart += 1
            } else if cells[cellStart].id == records[recordStart].id {
                cellStart += 1
                recordStart += 1
            } else {
                break
            }
        }
        var cellEnd = cells.count
        var recordEnd = records.count
        while cellEnd > cellStart, recordEnd > recordStart {
            if case .placeholder = cells[cellEnd - 1].content {
                cellEnd -= 1
            } else if cells[cellEnd - 1].id == records[recordEnd - 1].id {
                cellEnd -= 1
                recordEnd -= 1
            } else {
                break
            }
        }
        guard cellStart < cellEnd || recordStart < recordEnd else { return records.count }
        let old = Dictionary(
            (recordStart..<recordEnd).map { (records[$0].id, $0) }, uniquingKeysWith: { first, _ in first })
        var kept = Set<Int>()
        var between: [Record] = []
        for cell in cells[cellStart..<cellEnd] {
            if case .placeholder = cell.content { continue }
            if let position = old[cell.id] {
                between.append(records[position])
                kept.insert(position)
            } else {
                between.append(
                    Record(
                        id: cell.id, added: .none, sourceHash: 0, start: -1, textCount: 0, orientation: .square,
                        hasNote: false, isAnimated: false, palette: 0))
            }
        }
        for position in recordStart..<recordEnd where !kept.contains(position) {
            unusedBytes += byteCount(at: position)
        }
        let growth = between.count - (recordEnd - recordStart)
        if records.count + growth > records.capacity {
            records.reserveCapacity(records.count + max(growth, records.count / 16))
        }
        records.replaceSubrange(recordStart..<recordEnd, with: between)
        textBlocks.replace(recordStart..<recordEnd, count: between.count)
        return recordStart
    }

    /// The images to fold, as cell index and record position: those new to the entries (a start of -1), and those
    /// of `changed` or, when it is nil, those that hash otherwise than when they were indexed. A few changed ids are
    /// compared rather than hashed.
    private func positionsToWrite(of cells: [GalleryCell], changed: Set<ImageID>?) -> [(cell: Int, position: Int)] {
        let fewChanged = changed.flatMap { $0.count <= 8 ? Array($0) : nil }
        var written: [(cell: Int, position: Int)] = []
        var position = 0
        for index in cells.indices {
            if case .placeholder = cells[index].content { continue }
            let isWritten: Bool
            if records[position].start < 0 {
                isWritten = true
            } else if let fewChanged {
                isWritten = !fewChanged.isEmpty && fewChanged.contains(cells[index].id)
            } else if let changed {
                isWritten = changed.contains(cells[index].id)
            } else {
                isWritten = cells[index].image?.hashValue != records[position].sourceHash
            }
            if isWritten { written.append((index, position)) }
            position += 1
        }
        return written
    }

    /// Sums up the palettes again from the block holding `position` on, where records were written or moved in place.
    private mutating func restateColours(from position: Int) {
        colours.removeLast(from: position)
        for index in colours.count..<records.count { colours.append(records[index].palette) }
    }

    /// Copies the entries' bytes, in gallery order, into a buffer of their size, without those no entry reads.
    private mutating func reclaimUnusedBytes() {
        var used = 0
        for position in records.indices { used += byteCount(at: position) }
        var compact: [UInt8] = []
        compact.reserveCapacity(used)
        for position in records.indices {
            let start = records[position].start
            let end = self.end(at: position)
            records[position].start = compact.count
            compact.append(contentsOf: bytes[start..<end])
        }
        bytes = compact
        unusedBytes = 0
    }

    /// Appends `address` folded and a line break; returns where its host, folded, stands in `bytes` (without
    /// `www.`, user or port), nil when it names none. Folding goes character by character, so the folded host is
    /// the host folded alone, and stands where it stood when what comes before it is ASCII (folded byte for byte).
    private mutating func appendAddress(_ address: Substring, folding: inout SearchFolding) -> Range<Int>? {
        let start = bytes.count
        folding.append(address, to: &bytes)
        bytes.append(0x0A)
        guard let host = SearchEntry.hostRange(of: address) else { return nil }
        if address.utf8.prefix(host.upperBound).allSatisfy({ $0 < 0x80 }) {
            return start + host.lowerBound..<start + host.upperBound
        }
        // Folding a character outside ASCII may change its length: the parts are folded again on their own to
        // tell where the host's folded bytes are (its scalars' boundaries are ASCII bytes, so these are scalars).
        let utf8 = address.utf8
        let hostStart = utf8.index(utf8.startIndex, offsetBy: host.lowerBound)
        let hostEnd = utf8.index(utf8.startIndex, offsetBy: host.upperBound)
        var scratch: [UInt8] = []
        folding.append(address[..<hostStart], to: &scratch)
        let before = scratch.count
        folding.append(address[hostStart..<hostEnd], to: &scratch)
        return start + before..<start + scratch.count
    }

    private mutating func appendVarint(_ value: Int) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    private static func varintCount(_ value: Int) -> Int {
        var count = 1
        var value = value
        while value >= 0x80 {
            count += 1
            value >>= 7
        }
        return count
    }

    private func readVarint(_ index: inout Int) -> Int {
        var value = 0
        var shift = 0
        while true {
            let byte = bytes[index]
            index += 1
            value |= Int(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    private enum Fact { case format, tag, domain }

    /// Calls `visit` with where the entry's format, then each of its tags, then each of its domains stand in
    /// `bytes`, until it returns false.
    private func forEachFact(at position: Int, _ visit: (Fact, Range<Int>) -> Bool) {
        let start = records[position].start
        var index = start + Int(records[position].textCount)
        let format = readVarint(&index)
        if format > 0 {
            guard visit(.format, index..<index + format - 1) else { return }
            index += format - 1
        }
        let tagCount = readVarint(&index)
        if tagCount > 0 {
            var tagStart = start + readVarint(&index)
            for _ in 0..<tagCount {
                let count = readVarint(&index)
                guard visit(.tag, tagStart..<tagStart + count) else { return }
                tagStart += count + 1
            }
        }
        for _ in 0..<readVarint(&index) {
            let offset = readVarint(&index)
            let count = readVarint(&index)
            guard visit(.domain, start + offset..<start + offset + count) else { return }
        }
    }

    private func facts(_ fact: Fact, at position: Int) -> [String] {
        var found: [String] = []
        forEachFact(at: position) { kind, range in
            if kind == fact { found.append(String(decoding: bytes[range], as: UTF8.self)) }
            return true
        }
        return found
    }

    /// The format's name in lowercase (`png`, `webp`…), from the kept original or else the address's extension.
    public func format(at position: Int) -> String? { facts(.format, at: position).first }

    /// The host names of the image, its link and its page, folded, without a leading `www.`.
    public func domains(at position: Int) -> [String] { facts(.domain, at: position) }

    /// When the entry's image was added, as its state file writes it.
    func added(at position: Int) -> String? {
        let added = records[position].added
        return added.isOtherText ? otherAddedTexts[records[position].id].map(String.init) : added.text
    }

    /// Whether the entry's image was added before `bound`, its times compared when both are of the app's shape, else
    /// their texts (ISO 8601 in UTC, which sorts as it reads); nil when it has no time added.
    private func added(at position: Int, isBefore bound: (text: String, time: SearchAddedTime)) -> Bool? {
        if let isBefore = records[position].added.isBefore(bound.time) { return isBefore }
        return added(at: position).map { $0 < bound.text }
    }

    /// The entry at `position` as a value of its own.
    public func entry(at position: Int) -> SearchEntry {
        let record = records[position]
        return SearchEntry(
            id: record.id, text: Array(bytes[record.start..<record.start + Int(record.textCount)]),
            tags: facts(.tag, at: position), domains: domains(at: position), added: added(at: position),
            orientation: record.orientation, format: format(at: position), hasNote: record.hasNote,
            isAnimated: record.isAnimated,
            sourceHash: record.sourceHash)
    }

    /// The positions among `positions` whose entry `passes` and whose folded text holds every one of the words, the
    /// first `limit` of them, and how many of `positions` were looked at to find them.
    func positions(
        _ positions: some Collection<Int>, holdingAll words: [SearchEntry.Word], limit: Int,
        where passes: (Int) -> Bool
    ) -> (found: [Int], examined: Int) {
        guard limit > 0 else { return ([], 0) }
        // The buffers are opened once for all the entries; a record's fields are read in place, as a copy of it
        // would retain its strings.
        return bytes.withUnsafeBufferPointer { bytes in
            records.withUnsafeBufferPointer { records in
                var found: [Int] = []
                var examined = 0
                for position in positions {
                    examined += 1
                    let start = records[position].start
                    guard passes(position),
                        SearchEntry.containsAll(
                            words,
                            in: UnsafeBufferPointer(rebasing: bytes[start..<start + Int(records[position].textCount)]))
                    else { continue }
                    found.append(position)
                    if found.count == limit { break }
                }
                return (found, examined)
            }
        }
    }

    /// Whether the entry passes the query's filters (`filters`: those of them that are compared folded or as text).
    func passes(_ query: SearchQuery, filters: FoldedFilters, failed: Set<ImageID>, at position: Int) -> Bool {
        if let after = filters.after, added(at: position, isBefore: after) != false { return false }
        if let before = filters.before, added(at: position, isBefore: before) != true { return false }
        if let orientation = query.orientation, records[position].orientation != orientation { return false }
        if query.hasNote, !records[position].hasNote { return false }
        if query.isAnimated, !records[position].isAnimated { return false }
        if query.failedToLoad, !failed.contains(records[position].id) { return false }
        if let colour = filters.colour, colourCoverage(colour, at: position) == 0 { return false }
        guard filters.tag != nil || filters.domain != nil || filters.format != nil else { return true }
        var formatFound = filters.format == nil
        var tagFound = filters.tag == nil
        var domainFound = filters.domain == nil
        forEachFact(at: position) { kind, range in
            switch kind {
            case .format:
                if let format = filters.format { formatFound = String(decoding: bytes[range], as: UTF8.self) == format }
            case .tag:
                if !tagFound, let tag = filters.tag { tagFound = matches(range, tag, boundary: .after) }
            case .domain:
                if !domainFound, let domain = filters.domain { domainFound = matches(range, domain, boundary: .before) }
            }
            return true
        }
        return formatFound && tagFound && domainFound
    }

    /// The runs of positions within `range` where an entry may hold every one of the words (see `TextBlocks`).
    func runs(mayHoldingAll probes: [TextBlocks.Probe], within range: Range<Int>) -> [Range<Int>] {
        textBlocks.runs(mayHoldingAll: probes, within: range)
    }

    /// The runs of positions within `range` where an image of the colour `match` looks for may be: the entries outside
    /// them are of other colours.
    func runs(mayHolding match: ColourMatch, within range: Range<Int>) -> [Range<Int>] {
        colours.runs(mayHolding: match, within: range)
    }

    /// The share of the image, in fifteenths, of the colour `match` looks for.
    func colourCoverage(_ match: ColourMatch, at position: Int) -> Int {
        let palette = records[position].palette
        return palette == 0 ? 0 : match.coverage(of: Palette(measured: palette))
    }

    /// What a filter's name may be followed or preceded by in a stored one that it takes: `colour` takes
    /// `colour/red`, `example.org` takes `cdn.example.org`.
    private enum Boundary {
        case after, before
    }

    /// Whether the stored name at `range` is `name`, or holds it with `/` after (a nested tag) or `.` before (a host
    /// under a domain). Compared as strings, as they were before their bytes were kept: byte for byte when both
    /// are ASCII, which is the same.
    private func matches(_ range: Range<Int>, _ name: FoldedFilters.Name, boundary: Boundary) -> Bool {
        let stored = bytes[range]
        if name.isASCII, stored.allSatisfy({ $0 < 0x80 }) {
            let target = name.bytes
            if stored.count == target.count { return stored.elementsEqual(target) }
            guard stored.count > target.count else { return false }
            switch boundary {
            case .after:
                return stored[range.lowerBound + target.count] == UInt8(ascii: "/") && stored.starts(with: target)
            case .before:
                return stored[range.upperBound - target.count - 1] == UInt8(ascii: ".")
                    && stored.suffix(target.count).elementsEqual(target)
            }
        }
        let storedName = String(decoding: stored, as: UTF8.self)
        switch boundary {
        case .after: return storedName == name.string || storedName.hasPrefix(name.string + "/")
        case .before: return storedName == name.string || storedName.hasSuffix("." + name.string)
        }
    }
}
