/// A rectangle in layout points (the view scales to device pixels itself).
public struct LayoutRect: Equatable, Sendable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }

    public func contains(x px: Double, y py: Double) -> Bool {
        px >= x && px < maxX && py >= y && py < maxY
    }

    public func intersects(_ other: LayoutRect) -> Bool {
        x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }

    /// Distance from a point to the nearest edge (0 inside).
    public func distance(x px: Double, y py: Double) -> Double {
        let dx = max(x - px, 0, px - maxX)
        let dy = max(y - py, 0, py - maxY)
        return (dx * dx + dy * dy).squareRoot()
    }

    /// Linear interpolation towards `other`; `t` in 0...1.
    public func interpolated(to other: LayoutRect, t: Double) -> LayoutRect {
        LayoutRect(
            x: x + (other.x - x) * t, y: y + (other.y - y) * t,
            width: width + (other.width - width) * t, height: height + (other.height - height) * t)
    }
}

/// Justified rows, as in GNOME Photos: every row fills the width exactly and keeps each image's
/// aspect ratio; the last, unfilled row keeps the target height and stays left-aligned. Only the rows are
/// worked out up front, in one pass over the ratios; a cell's frame is worked out from its row when asked
/// for, so laying out a library costs the same whether it shows its first rows or all of them. Search results
/// are laid out a few screens at a time (`extend`), the rest of their height estimated meanwhile.
public struct JustifiedLayout: Sendable {
    public struct Row: Sendable {
        public var range: Range<Int>
        public var y: Double
        public var height: Double
    }

    /// Every laid-out cell's frame, each worked out when read (a binary search for its row, then its row's cells
    /// before it).
    public struct Frames: RandomAccessCollection, Sendable {
        fileprivate let layout: JustifiedLayout

        public var startIndex: Int { 0 }
        public var endIndex: Int { layout.laidOutCount }

        public subscript(index: Int) -> LayoutRect {
            let row = layout.rows[layout.row(containing: index)]
            var x = layout.spacing
            for before in row.range.lowerBound..<index {
                x += layout.aspectRatios[before] * row.height + layout.spacing
            }
            return LayoutRect(x: x, y: row.y, width: layout.aspectRatios[index] * row.height, height: row.height)
        }
    }

    public private(set) var rows: [Row] = []
    public let width: Double
    /// The ratios given so far; the cells of an unfinished last row wait in it for the next `extend`.
    private var aspectRatios: [Double]
    private let spacing: Double
    private let targetRowHeight: Double
    private let sectionStarts: [Int]
    private let headingHeight: Double
    /// How many cells there are in all, laid out or not.
    public private(set) var count: Int
    /// Where each section's heading stands (its top), in the order of `sectionStarts`; the sections laid out so far.
    public private(set) var headingTops: [Double] = []
    /// The top of the next row.
    private var nextY: Double

    public var frames: Frames { Frames(layout: self) }

    /// The cells in rows so far: the first `laidOutCount` of `count`.
    public var laidOutCount: Int { rows.last?.range.upperBound ?? 0 }

    public var isComplete: Bool { laidOutCount == count }

    /// The cells whose ratios were given, laid out or waiting to fill a row.
    public var givenCount: Int { aspectRatios.count }

    /// The bottom of the rows laid out so far.
    public var laidOutHeight: Double { rows.isEmpty ? 0 : nextY }

    /// The whole content's height: exact once complete; until then the rows so far, and the cells left at the
    /// height the laid-out cells took each (or square cells at the target height before any row).
    public var contentHeight: Double {
        let left = count - laidOutCount
        guard left > 0 else { return rows.isEmpty ? 0 : nextY }
        let inner = max(width - 2 * spacing, 1)
        let perCell =
            rows.isEmpty
            ? (targetRowHeight + spacing) / max((inner / (targetRowHeight + spacing)).rounded(.down), 1)
            : (nextY - spacing - Double(headingTops.count) * headingHeight) / Double(laidOutCount)
        let headingsLeft = Double(sectionStarts.count - headingTops.count) * headingHeight
        return nextY + Double(left) * perCell + headingsLeft
    }

    /// - Parameters:
    ///   - aspectRatios: width / height of each cell, in display order: all of them, or the first ones of
    ///     `count` (search results, laid out a screen at a time by `extend`).
    ///   - width: the available width, margins included.
    ///   - targetRowHeight: the height a row aims for; the zoom level.
    ///   - spacing: the gap between cells and around the edges.
    ///   - sectionStarts: the cells that begin a section (search results grouped by gallery): each begins a
    ///     row, under a heading `headingHeight` tall.
    public init(
        aspectRatios: [Double], width: Double, targetRowHeight: Double, spacing: Double, sectionStarts: [Int] = [],
        headingHeight: Double = 0, count: Int? = nil
    ) {
        self.width = width
        self.aspectRatios = aspectRatios
        self.spacing = spacing
        self.targetRowHeight = max(targetRowHeight, 1)
        self.sectionStarts = sectionStarts
        self.headingHeight = headingHeight
        self.count = max(count ?? aspectRatios.count, aspectRatios.count)
        nextY = spacing
        layOutGivenCells()
    }

    /// Lays out the next cells, `aspectRatios` following those given before: every row they fill, a section's
    /// last row, and the last row of all once every cell is given.
    public mutating func extend(with aspectRatios: [Double]) {
        self.aspectRatios.append(contentsOf: aspectRatios.prefix(count - self.aspectRatios.count))
        layOutGivenCells()
    }

    /// Lays out again from the cell at `index` on, whose ratios are now `aspectRatios` (as many as there are cells
    /// from there): the rows before the one that holds that cell stay, as each row is filled from its first cell on,
    /// so cells arriving at the end cost only their own rows. For a layout of one section, every cell given.
    public mutating func layOutAgain(from index: Int, aspectRatios ratios: [Double]) {
        precondition(sectionStarts.isEmpty && count == self.aspectRatios.count && index <= count)
        // The last row, unfilled, takes the cells that come after it.
        if !rows.isEmpty {
            let kept = row(containing: min(index, laidOutCount - 1))
            nextY = rows[kept].y
            rows.removeSubrange(kept...)
        }
        aspectRatios.removeSubrange(index...)
        aspectRatios.append(contentsOf: ratios)
        count = aspectRatios.count
        layOutGivenCells()
    }

    private mutating func layOutGivenCells() {
        let given = self.aspectRatios.count
        var nextSection = headingTops.count
        let inner = max(width - 2 * spacing, 1)
        let target = targetRowHeight
        var y = nextY
        var start = laidOutCount
        while start < given {
            var headings: [Double] = []
            var headed = y
            while nextSection + headings.count < sectionStarts.count
                && sectionStarts[nextSection + headings.count] <= start
            {
                headings.append(headed)
                headed += headingHeight
            }
            let sectionIndex = nextSection + headings.count
            let sectionEnd = sectionIndex < sectionStarts.count ? sectionStarts[sectionIndex] : count
            // Take cells until the row, at the target height, is at least as wide as the space.
            var end = start
            var ratioSum = 0.0
            var filled = false
            while end < min(sectionEnd, given) {
                ratioSum += self.aspectRatios[end]
                end += 1
                if ratioSum * target + Double(end - start - 1) * spacing >= inner {
                    filled = true
                    break
                }
            }
            // An unfilled row waits for the cells after it, unless its section or the cells end there.
            guard filled || end == sectionEnd else { break }
            headingTops.append(contentsOf: headings)
            nextSection += headings.count
            let gaps = Double(end - start - 1) * spacing
            let height = filled ? max((inner - gaps) / ratioSum, 1) : target
            rows.append(Row(range: start..<end, y: headed, height: height))
            y = headed + height + spacing
            start = end
        }
        nextY = y
    }

    /// The row that holds the cell at `index` (a valid index), by binary search.
    private func row(containing index: Int) -> Int {
        var low = 0
        var high = rows.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if rows[mid].range.lowerBound <= index { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// Indices of the cells that intersect `rect`, found by binary search over the rows.
    public func indices(intersecting rect: LayoutRect) -> Range<Int> {
        guard !rows.isEmpty else { return 0..<0 }
        let first = firstRow(endingAfter: rect.y)
        var last = first
        while last < rows.count && rows[last].y < rect.maxY { last += 1 }
        guard first < last else { return 0..<0 }
        return rows[first].range.lowerBound..<rows[last - 1].range.upperBound
    }

    /// The cell under a point, if any.
    public func index(at x: Double, _ y: Double) -> Int? {
        guard !rows.isEmpty else { return nil }
        let row = firstRow(endingAfter: y)
        guard row < rows.count else { return nil }
        return rows[row].range.first { frames[$0].contains(x: x, y: y) }
    }

    /// Where a drop at a point lands, as an insertion index in 0...count: before or after the
    /// nearest cell within `radius` (by which half of it the point is over); anywhere farther,
    /// or past the end, is the end.
    public func insertionIndex(x: Double, y: Double, radius: Double) -> Int {
        guard let lastRow = rows.last, let lastFrame = frames.last else { return 0 }
        // Past the end: below the last row, or beside it after its last cell (where the nearest
        // cell could otherwise be one in the row above).
        if y >= lastRow.y + lastRow.height || (y >= lastRow.y && x >= lastFrame.maxX) { return frames.count }
        // Only the rows within the radius can hold the nearest cell.
        let first = firstRow(endingAfter: y - radius)
        var nearest: (index: Int, distance: Double)?
        var row = first
        while row < rows.count && rows[row].y <= y + radius {
            for index in rows[row].range {
                let distance = frames[index].distance(x: x, y: y)
                if distance <= radius, distance < nearest?.distance ?? .infinity {
                    nearest = (index, distance)
                }
            }
            row += 1
        }
        guard let nearest else { return frames.count }
        return x < frames[nearest.index].midX ? nearest.index : nearest.index + 1
    }

    /// The first row whose bottom is below `y` (rows.count if none).
    private func firstRow(endingAfter y: Double) -> Int {
        var low = 0
        var high = rows.count
        while low < high {
            let mid = (low + high) / 2
            if rows[mid].y + rows[mid].height <= y { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
