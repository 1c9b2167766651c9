/// What the texts of each block of entries in a row hold, so that a search reads only the blocks where every word it
/// looks for may be: a word found in few images, or in none, is found without reading every text. A block keeps the
/// set of bytes its texts hold, exactly, and a Bloom filter of their pairs and triples of bytes in a row (those without
/// a line break or a space, which no query word holds): a word's bytes, pairs or triples missing from a block's say
/// that none of its texts holds the word. Blocks follow the entries' edits in place: an edit makes again only the
/// blocks of the positions it changed, and moves the later blocks' bounds.
struct TextBlocks: Sendable {
    /// Entries in a block: few enough that a word found in one image makes little more be read, many enough that
    /// looking at every block of a large library takes a small part of a frame.
    static let blockSize = 64
    /// The Bloom filter's bits for each byte of its block's texts: its pairs and triples are fewer than its bytes
    /// twice over, and fewer still once repeated ones count once.
    static let bitsPerTextByte = 3

    struct Block: Sendable {
        /// The position past the block's last entry; the block starts where the one before it ends.
        var end: Int
        /// The bytes its texts hold, a bit for each value.
        var bytes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        /// The Bloom filter of its pairs and triples; empty while the block waits to be made again.
        var filter: [UInt64] = []
        /// Whether the block must be made again from its entries' texts before it is read.
        var isStale = true

        func holds(byte: UInt8) -> Bool {
            let word: UInt64
            switch byte >> 6 {
            case 0: word = bytes.0
            case 1: word = bytes.1
            case 2: word = bytes.2
            default: word = bytes.3
            }
            return word & (1 << UInt64(byte & 63)) != 0
        }

        mutating func insert(byte: UInt8) {
            let bit: UInt64 = 1 << UInt64(byte & 63)
            switch byte >> 6 {
            case 0: bytes.0 |= bit
            case 1: bytes.1 |= bit
            case 2: bytes.2 |= bit
            default: bytes.3 |= bit
            }
        }
    }

    /// A query word as the blocks look for it: its bytes, and the hashes of its pairs (a word of two bytes) or
    /// triples (a longer one).
    struct Probe {
        let bytes: [UInt8]
        let hashes: [UInt64]

        init(_ word: [UInt8]) {
            var distinct: [UInt8] = []
            for byte in word where !distinct.contains(byte) { distinct.append(byte) }
            bytes = distinct
            let length = min(word.count, 3)
            var hashes: [UInt64] = []
            if length >= 2 {
                for start in 0...(word.count - length) {
                    let gram = word[start..<start + length]
                    guard !gram.contains(where: TextBlocks.isSeparator) else { continue }
                    hashes.append(TextBlocks.hash(gram))
                }
            }
            self.hashes = hashes
        }
    }

    private(set) var blocks: [Block] = []

    /// The positions the blocks cover, from 0: those after are read whatever they hold.
    var coveredCount: Int { blocks.last?.end ?? 0 }

    /// The memory the blocks hold, in bytes, as allocated.
    var allocatedBytes: Int {
        blocks.capacity * MemoryLayout<Block>.stride
            + blocks.reduce(0) { $0 + $1.filter.capacity * MemoryLayout<UInt64>.stride }
    }

    /// Bytes that no query word holds: a field's end and a space.
    static func isSeparator(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x20 }

    /// A pair's or triple's hash, its length counted, spread over 64 bits.
    static func hash(_ gram: ArraySlice<UInt8>) -> UInt64 {
        var key = UInt64(gram.count)
        for byte in gram { key = key << 8 | UInt64(byte) }
        return mix(key)
    }

    /// SplitMix64's finalizer: each bit of the key reaches every bit of the hash.
    private static func mix(_ value: UInt64) -> UInt64 {
        var value = value &+ 0x9E37_79B9_7F4A_7C15
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }

    /// The filter's three bits for `hash` in a filter of `bitCount` bits: three 21-bit parts of it, each scaled.
    private static func bits(of hash: UInt64, in bitCount: Int) -> (Int, Int, Int) {
        let count = UInt64(bitCount)
        return (
            Int(((hash & 0x1F_FFFF) &* count) >> 21), Int((((hash >> 21) & 0x1F_FFFF) &* count) >> 21),
            Int((((hash >> 42) & 0x1F_FFFF) &* count) >> 21)
        )
    }

    /// Makes block `index` from the texts of its entries (`text(position)` gives one).
    private mutating func make(
        _ index: Int, text: (Int) -> UnsafeBufferPointer<UInt8>
    ) {
        let start = index == 0 ? 0 : blocks[index - 1].end
        var block = Block(end: blocks[index].end)
        var byteCount = 0
        for position in start..<block.end { byteCount += text(position).count }
        let words = max(1, (byteCount * Self.bitsPerTextByte + 63) / 64)
        var filter = [UInt64](repeating: 0, count: words)
        let bitCount = words * 64
        filter.withUnsafeMutableBufferPointer { filter in
            func insert(_ hash: UInt64) {
                let (first, second, third) = Self.bits(of: hash, in: bitCount)
                filter[first >> 6] |= 1 << UInt64(first & 63)
                filter[second >> 6] |= 1 << UInt64(second & 63)
                filter[third >> 6] |= 1 << UInt64(third & 63)
            }
            for position in start..<block.end {
                let text = text(position)
                for index in text.indices {
                    let first = text[index]
                    block.insert(byte: first)
                    guard !Self.isSeparator(first), index + 1 < text.count else { continue }
                    let second = text[index + 1]
                    guard !Self.isSeparator(second) else { continue }
                    let pair = 2 << 16 | UInt64(first) << 8 | UInt64(second)
                    insert(Self.mix(pair))
                    guard index + 2 < text.count else { continue }
                    let third = text[index + 2]
                    guard !Self.isSeparator(third) else { continue }
                    insert(Self.mix(3 << 24 | UInt64(first) << 16 | UInt64(second) << 8 | UInt64(third)))
                }
            }
        }
        block.filter = filter
        block.isStale = false
        blocks[index] = block
    }

    /// Covers the positions up to `count` with blocks made from their texts; a last block smaller than `blockSize`
    /// is made again with the new positions, when there are any.
    mutating func cover(to count: Int, text: (Int) -> UnsafeBufferPointer<UInt8>) {
        guard coveredCount < count else { return }
        if let last = blocks.last, last.end - (blocks.count > 1 ? blocks[blocks.count - 2].end : 0) < Self.blockSize {
            blocks.removeLast()
        }
        while coveredCount < count {
            blocks.append(Block(end: min(coveredCount + Self.blockSize, count)))
            make(blocks.count - 1, text: text)
        }
    }

    /// Appends blocks for the entries past the covered ones while they fill a whole block (appending entries one by
    /// one makes each block once).
    mutating func coverWholeBlocks(to count: Int, text: (Int) -> UnsafeBufferPointer<UInt8>) {
        while count - coveredCount >= Self.blockSize {
            blocks.append(Block(end: coveredCount + Self.blockSize))
            make(blocks.count - 1, text: text)
        }
    }

    /// The entries of `range` were replaced by `count` others: the blocks they stood in are to be made again as one
    /// (then split), and the later ones move.
    mutating func replace(_ range: Range<Int>, count: Int) {
        let growth = count - range.count
        guard let first = firstBlock(endingAfter: range.lowerBound) else { return }
        guard range.upperBound <= coveredCount else {
            blocks.removeSubrange(first...)
            return
        }
        var last = first
        while last + 1 < blocks.count, blocks[last].end < range.upperBound { last += 1 }
        let start = first == 0 ? 0 : blocks[first - 1].end
        let merged = Block(end: blocks[last].end + growth)
        if merged.end > start {
            blocks.replaceSubrange(first...last, with: [merged])
            last = first
        } else {
            blocks.removeSubrange(first...last)
            last = first - 1
        }
        for index in (last + 1)..<blocks.count { blocks[index].end += growth }
    }

    /// The entry at `position` was written again: its block is to be made again.
    mutating func invalidate(_ position: Int) {
        guard let index = firstBlock(endingAfter: position), !blocks[index].isStale else { return }
        blocks[index].isStale = true
        blocks[index].filter = []
    }

    /// Makes again the blocks to be made again, split into blocks of `blockSize` (one made of several merged is
    /// larger).
    mutating func remake(text: (Int) -> UnsafeBufferPointer<UInt8>) {
        guard blocks.contains(where: \.isStale) else { return }
        var remade: [Block] = []
        remade.reserveCapacity(blocks.count)
        var start = 0
        var stale: [Int] = []
        for block in blocks {
            if block.isStale {
                var end = min(start + Self.blockSize, block.end)
                while true {
                    stale.append(remade.count)
                    remade.append(Block(end: end))
                    guard end < block.end else { break }
                    end = min(end + Self.blockSize, block.end)
                }
            } else {
                remade.append(block)
            }
            start = block.end
        }
        blocks = remade
        for index in stale { make(index, text: text) }
    }

    /// The index of the first block that ends after `position`, nil when none does.
    private func firstBlock(endingAfter position: Int) -> Int? {
        var low = 0
        var high = blocks.count
        while low < high {
            let middle = (low + high) / 2
            if blocks[middle].end > position { high = middle } else { low = middle + 1 }
        }
        return low < blocks.count ? low : nil
    }

    /// The runs of positions within `range` whose blocks may hold every one of the words (an entry in the others
    /// holds one of them not), in order; those past the covered blocks are all taken.
    func runs(mayHoldingAll probes: [Probe], within range: Range<Int>) -> [Range<Int>] {
        guard !range.isEmpty else { return [] }
        guard !probes.isEmpty else { return [range] }
        var runs: [Range<Int>] = []
        func take(_ run: Range<Int>) {
            guard !run.isEmpty else { return }
            if let last = runs.last, last.upperBound == run.lowerBound {
                runs[runs.count - 1] = last.lowerBound..<run.upperBound
            } else {
                runs.append(run)
            }
        }
        var index = firstBlock(endingAfter: range.lowerBound) ?? blocks.count
        var start = index == 0 ? 0 : blocks[index - 1].end
        while index < blocks.count, start < range.upperBound {
            let block = blocks[index]
            if block.isStale || Self.mayHoldAll(probes, block) {
                take(max(start, range.lowerBound)..<min(block.end, range.upperBound))
            }
            start = block.end
            index += 1
        }
        let uncovered = max(coveredCount, range.lowerBound)
        if uncovered < range.upperBound { take(uncovered..<range.upperBound) }
        return runs
    }

    private static func mayHoldAll(_ probes: [Probe], _ block: Block) -> Bool {
        let bitCount = block.filter.count * 64
        return block.filter.withUnsafeBufferPointer { filter in
            probes.allSatisfy { probe in
                probe.bytes.allSatisfy(block.holds(byte:))
                    && probe.hashes.allSatisfy { hash in
                        let (first, second, third) = bits(of: hash, in: bitCount)
                        return filter[first >> 6] & (1 << UInt64(first & 63)) != 0
                            && filter[second >> 6] & (1 << UInt64(second & 63)) != 0
                            && filter[third >> 6] & (1 << UInt64(third & 63)) != 0
                    }
            }
        }
    }
}
