/// The cells a window shows, read in place: a gallery's cells, or search results as positions in their
/// galleries' cells, so showing 50,000 results copies no cell (a keystroke's work is what is on screen).
public struct ShownCells: RandomAccessCollection, Sendable {
    /// A run of shown cells from one gallery: `positions` among its `cells`, or all of them in order when nil.
    @usableFromInline
    struct Part: Sendable {
        @usableFromInline var cells: [GalleryCell]
        @usableFromInline var positions: [Int]?
        /// Where the part begins among the shown cells.
        @usableFromInline var start: Int
    }

    @usableFromInline var parts: [Part]
    public let endIndex: Int

    public var startIndex: Int { 0 }

    /// A gallery's cells, all of them in order.
    public init(_ cells: [GalleryCell]) {
        parts = [Part(cells: cells, positions: nil, start: 0)]
        endIndex = cells.count
    }

    /// Runs of galleries' cells, each at the given positions of its gallery's cells.
    init(runs: [(cells: [GalleryCell], positions: [Int])]) {
        var parts: [Part] = []
        var count = 0
        for run in runs where !run.positions.isEmpty {
            parts.append(Part(cells: run.cells, positions: run.positions, start: count))
            count += run.positions.count
        }
        self.parts = parts
        endIndex = count
    }

    /// The run at `index` (the `index`th of `init(runs:)` with positions) reading its cells from `cells`: its
    /// gallery's cells changed where they stand (records made), each result still at its position.
    mutating func replaceCells(ofRun index: Int, with cells: [GalleryCell]) {
        parts[index].cells = cells
    }

    @inlinable
    public subscript(position: Int) -> GalleryCell {
        _read {
            let part = parts.count == 1 ? 0 : self.part(containing: position)
            let offset = position - parts[part].start
            if let positions = parts[part].positions {
                yield parts[part].cells[positions[offset]]
            } else {
                yield parts[part].cells[offset]
            }
        }
    }

    /// The run that holds `position`, by binary search over the runs' starts.
    @usableFromInline
    func part(containing position: Int) -> Int {
        var low = 0
        var high = parts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if parts[mid].start <= position { low = mid } else { high = mid - 1 }
        }
        return low
    }
}
