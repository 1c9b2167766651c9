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
/// for, so laying out a library costs the same whether it shows its first rows or all of them.
public struct JustifiedLayout: Sendable {
    public struct Row: Sendable {
        public var range: Range<Int>
        public var y: Double
        public var height: Double
    }

    /// Every cell's frame, each worked out when read (a binary search for its row, then its row's cells
    /// before it).
    public struct Frames: RandomAccessCollection, Sendable {
        fileprivate let layout: JustifiedLayout

        public var startIndex: Int { 0 }
        public var endIndex: Int { layout.aspectRatios.count }

        public subscript(index: Int) -> LayoutRect {
            let row = layout.rows[layout.row(containing: index)]
            var x = layout.spacing
            for before in row.range.lowerBound..<index {
                x += layout.aspectRatios[before] * row.height + layout.spacing
            }
            return LayoutRect(x: x, y: row.y, width: layout.aspectRatios[index] * row.height, height: row.height)
        }
    }

    public let rows: [Row]
    public let contentHeight: Double
    public let width: Double
    private let aspectRatios: [Double]
    private let spacing: Double
    /// Where each section's heading stands (its top), in the order of `sectionStarts`.
    public let headingTops: [Double]

    public var frames: Frames { Frames(layout: self) }

    /// - Parameters:
    ///   - aspectRatios: width / height of each cell, in display order.
    ///   - width: the available width, margins included.
    ///   - targetRowHeight: the height a row aims for; the zoom level.
    ///   - spacing: the gap between cells and around the edges.
    ///   - sectionStarts: the cells that begin a section (search results grouped by gallery): each begins a
    ///     row, under a heading `headingHeight` tall.
    public init(
        aspectRatios: [Double], width: Double, targetRowHeight: Double, spacing: Double, sectionStarts: [Int] = [],
        headingHeight: Double = 0
    ) {
        self.width = width
        self.aspectRatios = aspectRatios
        self.spacing = spacing
        var headingTops: [Double] = []
        var nextSection = 0
        let inner = max(width - 2 * spacing, 1)
        let target = max(targetRowHeight, 1)
        var rows: [Row] = []
        var y = spacing
        var start = 0
        while start < aspectRatios.count {
            while nextSection < sectionStarts.count && sectionStarts[nextSection] <= start {
                headingTops.append(y)
                y += headingHeight
                nextSection += 1
            }
            let sectionEnd = nextSection < sectionStarts.count ? sectionStarts[nextSection] : aspectRatios.count
            // Take cells until the row, at the target height, is at least as wide as the space.
            var end = start
            var ratioSum = 0.0
            while end < sectionEnd {
                ratioSum += aspectRatios[end]
                end += 1
                let gaps = Double(end - start - 1) * spacing
                if ratioSum * target + gaps >= inner { break }
            }
            let gaps = Double(end - start - 1) * spacing
            let filled = ratioSum * target + gaps >= inner
            let height = filled ? max((inner - gaps) / ratioSum, 1) : target
            rows.append(Row(range: start..<end, y: y, height: height))
            y += height + spacing
            start = end
        }
        self.rows = rows
        self.headingTops = headingTops
        contentHeight = rows.isEmpty ? 0 : y
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
