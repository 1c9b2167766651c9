/// Which colours occur in each block of `blockSize` palettes in a row, so that a colour search reads only the blocks
/// where an image may be of its colour: a colour no image has is found nowhere without reading every palette. A
/// block keeps a small set of bins: the names of its swatches' colours, then the cells of a coarse grid (half the
/// steps of each axis) their colours fall in. Only swatches of a meaningful share count, as only they match.
public struct PaletteBlocks: Sendable {
    /// Palettes in a block: few enough that an image of the colour makes little more be read, many enough that the
    /// bins take little room beside the palettes themselves.
    public static let blockSize = 256
    /// A block's bins: one word of names, then the grid's cells.
    static let wordsPerBlock = 1 + gridCells / UInt64.bitWidth
    /// The coarse grid's cells: eight steps on each of the three axes.
    static let gridCells = 512

    /// Each block's bins, `wordsPerBlock` words a block.
    private var words: [UInt64] = []
    /// How many palettes were appended.
    public private(set) var count = 0

    public init() {}

    /// The memory the blocks hold, in bytes, as allocated.
    public var allocatedBytes: Int { words.capacity * MemoryLayout<UInt64>.stride }

    /// Makes room for `count` more palettes, so that appending them does not double the room.
    public mutating func reserveCapacity(adding count: Int) {
        let blocks = (self.count + count + Self.blockSize - 1) / Self.blockSize
        words.reserveCapacity(blocks * Self.wordsPerBlock)
    }

    /// Appends `palette` (0: none measured yet) as the next one.
    public mutating func append(_ palette: UInt64) {
        if count.isMultiple(of: Self.blockSize) {
            words.append(contentsOf: repeatElement(0, count: Self.wordsPerBlock))
        }
        let start = count / Self.blockSize * Self.wordsPerBlock
        count += 1
        add(palette, toBlockAt: start)
    }

    /// Sums up again the block that holds `position`, whose palettes are now `palettes` (all of them, in order).
    public mutating func restate(blockOf position: Int, with palettes: [UInt64]) {
        let start = position / Self.blockSize * Self.wordsPerBlock
        guard start + Self.wordsPerBlock <= words.count else { return }
        for word in start..<start + Self.wordsPerBlock { words[word] = 0 }
        for palette in palettes { add(palette, toBlockAt: start) }
    }

    /// Sets the bins of `palette`'s meaningful swatches in the block whose words start at `start`.
    private mutating func add(_ palette: UInt64, toBlockAt start: Int) {
        var swatches = palette
        for _ in 0..<Palette.swatchCount {
            let code = Int(swatches >> 48)
            swatches <<= 16
            guard code >> 12 >= ColourMatch.meaningfulShare else { continue }
            let colour = code & 0xFFF
            words[start] |= Self.nameBits[colour]
            let cell = Self.cell(of: colour)
            words[start + 1 + cell / UInt64.bitWidth] |= 1 << UInt64(cell % UInt64.bitWidth)
        }
    }

    /// Forgets the palettes from the block holding `position` on, so that those from there can be appended again.
    public mutating func removeLast(from position: Int) {
        let block = min(position, count) / Self.blockSize
        words.removeSubrange(min(block * Self.wordsPerBlock, words.count)...)
        count = block * Self.blockSize
    }

    /// The runs of positions within `range` whose blocks may hold an image of the colour `match` looks for (an image
    /// in the others cannot be of it), in order.
    func runs(mayHolding match: ColourMatch, within range: Range<Int>) -> [Range<Int>] {
        guard !range.isEmpty else { return [] }
        var runs: [Range<Int>] = []
        words.withUnsafeBufferPointer { words in
            for block in range.lowerBound / Self.blockSize...(range.upperBound - 1) / Self.blockSize {
                let start = block * Self.wordsPerBlock
                guard (0..<Self.wordsPerBlock).contains(where: { words[start + $0] & match.bins[$0] != 0 }) else {
                    continue
                }
                let run =
                    max(block * Self.blockSize, range.lowerBound)..<min((block + 1) * Self.blockSize, range.upperBound)
                if let last = runs.last, last.upperBound == run.lowerBound {
                    runs[runs.count - 1] = last.lowerBound..<run.upperBound
                } else {
                    runs.append(run)
                }
            }
        }
        return runs
    }

    /// The bins of a block that may hold an image of colour `name`: the name's alone, as a name's colours are its own.
    static func bins(of name: NamedColour) -> [UInt64] {
        var bins = [UInt64](repeating: 0, count: wordsPerBlock)
        bins[0] = 1 << UInt64(NamedColour.allCases.firstIndex(of: name)!)
        return bins
    }

    /// The bins of a block that may hold an image of a colour `colours` takes (for each colour a swatch can hold, its
    /// 12 bits, whether it takes it): their grid cells.
    static func bins(ofAny colours: [Bool]) -> [UInt64] {
        var bins = [UInt64](repeating: 0, count: wordsPerBlock)
        for colour in colours.indices where colours[colour] {
            let cell = Self.cell(of: colour)
            bins[1 + cell / UInt64.bitWidth] |= 1 << UInt64(cell % UInt64.bitWidth)
        }
        return bins
    }

    /// The bin of each colour's name, worked out once.
    private static let nameBits: [UInt64] = ColourMatch.names.map {
        1 << UInt64(NamedColour.allCases.firstIndex(of: $0)!)
    }

    /// The grid cell of a colour: the upper three bits of each of its steps.
    private static func cell(of colour: Int) -> Int {
        (colour >> 9 & 7) << 6 | (colour >> 5 & 7) << 3 | (colour >> 1 & 7)
    }
}
