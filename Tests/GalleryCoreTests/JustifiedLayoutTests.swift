import Testing

@testable import GalleryCore

private func randomRatios(count: Int, seed: UInt64) -> [Double] {
    var generator = SplitMix64(seed: seed)
    return (0..<count).map { _ in Double.random(in: 0.3...3.5, using: &generator) }
}

private func relativeError(_ a: Double, _ b: Double) -> Double { abs(a - b) / max(abs(b), 1e-300) }

@Suite struct JustifiedLayoutTests {
    let width = 800.0
    let target = 200.0
    let spacing = 12.0

    @Test func splitMix64IsDeterministicAndMatchesReference() {
        // Reference values of SplitMix64 for seed 0 (Vigna's splitmix64.c).
        var generator = SplitMix64(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
        var a = SplitMix64(seed: 42)
        var b = SplitMix64(seed: 42)
        #expect((0..<5).map { _ in a.next() } == (0..<5).map { _ in b.next() })
    }

    @Test func filledRowsSpanExactlyTheWidth() throws {
        let ratios = randomRatios(count: 200, seed: 1)
        let layout = JustifiedLayout(aspectRatios: ratios, width: width, targetRowHeight: target, spacing: spacing)
        #expect(layout.frames.count == 200)
        #expect(layout.rows.count > 10)
        // Rows partition the indices in order.
        #expect(layout.rows.first?.range.lowerBound == 0)
        #expect(layout.rows.last?.range.upperBound == 200)
        for (a, b) in zip(layout.rows, layout.rows.dropFirst()) { #expect(a.range.upperBound == b.range.lowerBound) }

        for row in layout.rows.dropLast() {
            let first = layout.frames[row.range.first!]
            let last = layout.frames[row.range.last!]
            #expect(abs(first.x - spacing) < 0.01)
            #expect(abs(last.maxX - (width - spacing)) < 0.01, "row \(row.range) ends at \(last.maxX)")
            // Cells of a row share its y and height and are separated by exactly `spacing`.
            for index in row.range {
                #expect(layout.frames[index].y == row.y)
                #expect(layout.frames[index].height == row.height)
            }
            for index in row.range.dropLast() {
                #expect(abs(layout.frames[index + 1].x - layout.frames[index].maxX - spacing) < 1e-9)
            }
        }
        // Rows stack with `spacing` between them.
        #expect(abs(layout.rows[0].y - spacing) < 1e-9)
        for (a, b) in zip(layout.rows, layout.rows.dropFirst()) {
            #expect(abs(b.y - (a.y + a.height + spacing)) < 1e-9)
        }
    }

    @Test func everyFrameKeepsItsAspectRatio() {
        let ratios = randomRatios(count: 300, seed: 7)
        for width in [320.0, 800.0, 1920.0] {
            let layout = JustifiedLayout(aspectRatios: ratios, width: width, targetRowHeight: 160, spacing: 6)
            for (frame, ratio) in zip(layout.frames, ratios) {
                #expect(relativeError(frame.width / frame.height, ratio) < 1e-9)
            }
        }
    }

    @Test func lastUnfilledRowKeepsTargetHeightAndIsLeftAligned() throws {
        // Two squares at 200 high are 412 wide: not enough for 776, so the only row is unfilled.
        let layout = JustifiedLayout(aspectRatios: [1, 1.5], width: width, targetRowHeight: target, spacing: spacing)
        try #require(layout.rows.count == 1)
        #expect(layout.rows[0].height == target)
        #expect(
            Array(layout.frames) == [
                LayoutRect(x: 12, y: 12, width: 200, height: 200),
                LayoutRect(x: 224, y: 12, width: 300, height: 200),
            ])
        #expect(layout.contentHeight == 12 + 200 + 12)

        // After filled rows, the remainder row too.
        let ratios = [2.0, 2.0, 1.0] + [1.0]  // 2+2 at 200 = 800+12 >= 776: filled. Then 1+1 unfilled.
        let layout2 = JustifiedLayout(aspectRatios: ratios, width: width, targetRowHeight: target, spacing: spacing)
        try #require(layout2.rows.count == 2)
        #expect(layout2.rows[0].range == 0..<2)
        #expect(abs(layout2.rows[0].height - (776.0 - 12) / 4) < 1e-9)
        #expect(layout2.rows[1].range == 2..<4)
        #expect(layout2.rows[1].height == target)
        #expect(layout2.frames[2].x == spacing)
        #expect(layout2.frames[3].x == spacing + 200 + spacing)
        #expect(layout2.frames[3].maxX < width - spacing)
    }

    @Test func exactlyFittingRowCountsAsFilled() throws {
        // 776 inner = 2 cells * 382 + 12: at target 382, two squares fill exactly.
        let layout = JustifiedLayout(aspectRatios: [1, 1, 1], width: 800, targetRowHeight: 382, spacing: 12)
        try #require(layout.rows.count == 2)
        #expect(layout.rows[0].range == 0..<2)
        #expect(abs(layout.rows[0].height - 382) < 1e-9)
        #expect(layout.rows[1].range == 2..<3)
    }

    @Test func singleVeryWideImageFillsItsOwnRow() throws {
        let layout = JustifiedLayout(aspectRatios: [1, 40, 1], width: width, targetRowHeight: target, spacing: spacing)
        // The square alone is too narrow, so it shares a row with the panorama; the last square is alone.
        try #require(layout.rows.count == 2)
        #expect(layout.rows[0].range == 0..<2)
        #expect(abs(layout.rows[0].height - (776.0 - 12) / 41) < 1e-9)
        #expect(abs(layout.frames[1].maxX - (width - spacing)) < 0.01)

        let alone = JustifiedLayout(aspectRatios: [60], width: width, targetRowHeight: target, spacing: spacing)
        try #require(alone.rows.count == 1)
        let frame = alone.frames[0]
        #expect(frame.x == spacing)
        #expect(abs(frame.width - 776) < 0.01)
        #expect(abs(frame.height - 776.0 / 60) < 1e-9)
        #expect(abs(alone.contentHeight - (12 + 776.0 / 60 + 12)) < 1e-9)
    }

    @Test func emptyInput() {
        let layout = JustifiedLayout(aspectRatios: [], width: width, targetRowHeight: target, spacing: spacing)
        #expect(layout.frames.isEmpty)
        #expect(layout.rows.isEmpty)
        #expect(layout.contentHeight == 0)
        #expect(layout.indices(intersecting: LayoutRect(x: 0, y: 0, width: 800, height: 800)).isEmpty)
        #expect(layout.index(at: 20, 20) == nil)
        #expect(layout.insertionIndex(x: 20, y: 20, radius: 200) == 0)
    }

    @Test func contentHeightIsBottomOfLastRowPlusSpacing() throws {
        let layout = JustifiedLayout(
            aspectRatios: randomRatios(count: 57, seed: 3), width: 1000,
            targetRowHeight: 180, spacing: 8)
        let last = try #require(layout.rows.last)
        #expect(abs(layout.contentHeight - (last.y + last.height + 8)) < 1e-9)
        let sum = layout.rows.reduce(8.0) { $0 + $1.height + 8 }
        #expect(abs(layout.contentHeight - sum) < 1e-9)
    }

    @Test func indicesIntersectingMatchesBruteForce() {
        let ratios = randomRatios(count: 400, seed: 99)
        let layout = JustifiedLayout(aspectRatios: ratios, width: 1000, targetRowHeight: 150, spacing: 10)
        var generator = SplitMix64(seed: 2024)
        var nonEmpty = 0
        for _ in 0..<2000 {
            let y = Double.random(in: -200...(layout.contentHeight + 200), using: &generator)
            let height = Double.random(in: 0...600, using: &generator)
            let x = Double.random(in: -100...1000, using: &generator)
            let w = Double.random(in: 1...1200, using: &generator)

            // A full-width strip (what the view asks for): exactly the cells whose frames intersect it.
            let strip = LayoutRect(x: 0, y: y, width: 1000, height: height)
            let expected = layout.frames.indices.filter { layout.frames[$0].intersects(strip) }
            let got = layout.indices(intersecting: strip)
            #expect(Array(got) == expected, "strip y=\(y) h=\(height)")
            if !expected.isEmpty { nonEmpty += 1 }

            // Any rect: whole rows, those overlapping it vertically; every intersecting frame included.
            let rect = LayoutRect(x: x, y: y, width: w, height: height)
            let rowWise = layout.rows.filter { $0.y < rect.maxY && rect.y < $0.y + $0.height }.flatMap {
                Array($0.range)
            }
            let range = layout.indices(intersecting: rect)
            #expect(Array(range) == rowWise)
            for index in layout.frames.indices where layout.frames[index].intersects(rect) {
                #expect(range.contains(index))
            }
        }
        #expect(nonEmpty > 1000)
    }

    @Test func indicesIntersectingEdges() throws {
        let layout = JustifiedLayout(
            aspectRatios: Array(repeating: 1, count: 12), width: 800,
            targetRowHeight: 200, spacing: 12)
        // 4 per row: 4*200+36 = 836 >= 776, height (776-36)/4 = 185.
        try #require(layout.rows.count == 3)
        let h = 185.0
        #expect(abs(layout.rows[0].height - h) < 1e-9)
        // Entirely inside the gap between rows 0 and 1: nothing.
        let gap = LayoutRect(x: 0, y: 12 + h + 1, width: 800, height: 10)
        #expect(layout.indices(intersecting: gap).isEmpty)
        // Touching the bottom edge of row 0 (half-open) only reaches row 1.
        let fromEdge = LayoutRect(x: 0, y: 12 + h, width: 800, height: 20)
        #expect(layout.indices(intersecting: fromEdge) == 4..<8)
        // Above and below all content.
        #expect(layout.indices(intersecting: LayoutRect(x: 0, y: -50, width: 800, height: 40)).isEmpty)
        #expect(layout.indices(intersecting: LayoutRect(x: 0, y: layout.contentHeight, width: 800, height: 40)).isEmpty)
        // Everything.
        #expect(layout.indices(intersecting: LayoutRect(x: 0, y: 0, width: 800, height: 10_000)) == 0..<12)
    }

    @Test func indexAtHitsCellsAndMissesGaps() throws {
        let layout = JustifiedLayout(
            aspectRatios: randomRatios(count: 80, seed: 5), width: 900,
            targetRowHeight: 170, spacing: 10)
        for (index, frame) in layout.frames.enumerated() {
            #expect(layout.index(at: frame.midX, frame.midY) == index)
            #expect(layout.index(at: frame.x, frame.y) == index)  // top-left corner is inside
            #expect(layout.index(at: frame.maxX - 0.001, frame.maxY - 0.001) == index)
            // The gap to the right of a cell and just above it hit nothing.
            #expect(layout.index(at: frame.maxX + 5, frame.midY) == nil)
            #expect(layout.index(at: frame.midX, frame.y - 5) == nil)
        }
        #expect(layout.index(at: 5, 50) == nil)  // left margin
        #expect(layout.index(at: 100, layout.contentHeight + 10) == nil)  // below everything
        #expect(layout.index(at: 100, -10) == nil)  // above everything
    }

    /// Twelve squares in three rows of four (185 × 185, x = 12, 209, 406, 603).
    private var grid: JustifiedLayout {
        JustifiedLayout(aspectRatios: Array(repeating: 1, count: 12), width: 800, targetRowHeight: 200, spacing: 12)
    }

    @Test func insertionIndexOverHalvesOfACell() throws {
        let layout = grid
        let frame = layout.frames[5]  // row 1, second cell
        #expect(frame == LayoutRect(x: 209, y: 209, width: 185, height: 185))
        #expect(layout.insertionIndex(x: frame.x + 10, y: frame.midY, radius: 185) == 5)
        #expect(layout.insertionIndex(x: frame.midX - 0.5, y: frame.midY, radius: 185) == 5)
        #expect(layout.insertionIndex(x: frame.midX + 0.5, y: frame.midY, radius: 185) == 6)
        #expect(layout.insertionIndex(x: frame.maxX - 10, y: frame.midY, radius: 185) == 6)
        // Radius 0 still works over a cell (distance 0).
        #expect(layout.insertionIndex(x: frame.maxX - 10, y: frame.midY, radius: 0) == 6)
        // Last cell, right half: the end.
        let lastFrame = layout.frames[11]
        #expect(layout.insertionIndex(x: lastFrame.maxX - 1, y: lastFrame.midY, radius: 185) == 12)
    }

    @Test func insertionIndexInGapsAndMargins() throws {
        let layout = grid
        // Horizontal gap between cells 5 and 6 (x 394...406): nearer to 5's right edge → after 5.
        #expect(layout.insertionIndex(x: 396, y: 300, radius: 185) == 6)
        // ... nearer to 6's left edge → before 6.
        #expect(layout.insertionIndex(x: 404, y: 300, radius: 185) == 6)
        // Gap between rows 0 and 1 (y 197...209), nearer to row 0, under the left half of cell 1.
        #expect(layout.insertionIndex(x: 250, y: 199, radius: 185) == 1)
        // ... under the right half of cell 1.
        #expect(layout.insertionIndex(x: 380, y: 199, radius: 185) == 2)
        // ... nearer to row 1, over the left half of cell 5.
        #expect(layout.insertionIndex(x: 250, y: 207, radius: 185) == 5)
        // ... nearer to row 1, over the right half of cell 5.
        #expect(layout.insertionIndex(x: 380, y: 207, radius: 185) == 6)
        // Left margin of row 1: before its first cell.
        #expect(layout.insertionIndex(x: 3, y: 300, radius: 185) == 4)
        // Right margin of row 1: after its last cell.
        #expect(layout.insertionIndex(x: 797, y: 300, radius: 185) == 8)
    }

    @Test func insertionIndexBelowLastRowIsTheEnd() throws {
        let layout = grid
        let last = try #require(layout.rows.last)
        let bottom = last.y + last.height
        // Just under the last row, under its first cell (well within the radius): the end.
        #expect(layout.insertionIndex(x: 50, y: bottom + 4, radius: 185) == 12)
        #expect(layout.insertionIndex(x: 700, y: bottom + 4, radius: 185) == 12)
        #expect(layout.insertionIndex(x: 50, y: layout.contentHeight + 100, radius: 185) == 12)

        // An unfilled last row: to the right of its last cell is the end too.
        let partial = JustifiedLayout(aspectRatios: [1, 1, 1, 1, 1, 1], width: 800, targetRowHeight: 200, spacing: 12)
        try #require(partial.rows.count == 2)
        #expect(partial.frames[5].maxX < 500)
        #expect(partial.insertionIndex(x: 600, y: partial.frames[5].midY, radius: 200) == 6)
        // ... but over the left half of its first cell is before that cell.
        #expect(partial.insertionIndex(x: partial.frames[4].x + 5, y: partial.frames[4].midY, radius: 200) == 4)
    }

    @Test func insertionIndexFarAwayIsTheEnd() {
        let layout = grid
        // Far to the right of row 0 (beyond the radius): the end, not after row 0.
        #expect(layout.insertionIndex(x: 5000, y: 100, radius: 185) == 12)
        // Far above (negative y, beyond the radius).
        #expect(layout.insertionIndex(x: 100, y: -500, radius: 185) == 12)
        // Just within the radius above row 0: before cell 0.
        #expect(layout.insertionIndex(x: 20, y: -100, radius: 185) == 0)
        // Radius 0 and a point in a gap: the end.
        #expect(layout.insertionIndex(x: 400, y: 300, radius: 0) == 12)
    }

    /// Laid out again from a changed cell on, a layout is the one laid out afresh: cells put in or taken out at the
    /// start, in the middle, at the end, in a layout of nothing or one row.
    @Test func layingOutAgainFromACellIsLayingOutAfresh() {
        var random = SplitMix64(seed: 11)
        for count in [0, 1, 3, 40, 500] {
            for _ in 0..<40 {
                let ratios = randomRatios(count: count, seed: random.next())
                var layout = JustifiedLayout(
                    aspectRatios: ratios, width: width, targetRowHeight: target, spacing: spacing)
                let index = Int(random.next() % UInt64(count + 1))
                let removed = Int(random.next() % UInt64(count - index + 1))
                let added = randomRatios(count: Int(random.next() % 30), seed: random.next())
                let changed = Array(ratios[..<index]) + added + ratios[(index + removed)...]
                layout.layOutAgain(from: index, aspectRatios: Array(changed[index...]))
                let fresh = JustifiedLayout(
                    aspectRatios: changed, width: width, targetRowHeight: target, spacing: spacing)
                #expect(layout.count == fresh.count && layout.isComplete)
                #expect(
                    layout.rows.map { [$0.range.lowerBound, $0.range.upperBound] }
                        == fresh.rows.map {
                            [$0.range.lowerBound, $0.range.upperBound]
                        })
                #expect(layout.rows.map { [$0.y, $0.height] } == fresh.rows.map { [$0.y, $0.height] })
                #expect(Array(layout.frames) == Array(fresh.frames))
                #expect(layout.contentHeight == fresh.contentHeight)
            }
        }
    }
}
