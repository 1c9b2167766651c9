/// An image reduced to a small square of average colours (sRGB, 0…1, transparency shown over white): what the
/// fingerprint and the palette are measured on, so that neither depends on the picture's size or its encoding.
public struct ColourGrid: Sendable, Equatable {
    /// Cells on a side.
    public static let side = 32
    /// Pixels read along each side at most: a larger picture is sampled, which averages as well at this grid's size.
    static let samplesPerSide = 512

    /// Red, green and blue of each cell, row by row.
    public private(set) var red: [Float]
    public private(set) var green: [Float]
    public private(set) var blue: [Float]

    /// The grid of colours given cell by cell, row by row (`side` × `side` each).
    public init(red: [Float], green: [Float], blue: [Float]) {
        precondition(red.count == Self.side * Self.side && green.count == red.count && blue.count == red.count)
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// The grid of `pixels`, `width` × `height` of them in `layout`, `rowBytes` apart.
    public init(pixels: Span<UInt8>, width: Int, height: Int, rowBytes: Int, layout: PixelLayout) {
        let side = Self.side
        let cells = side * side
        var sums = [Float](repeating: 0, count: cells * 3)
        var counts = [Float](repeating: 0, count: cells)
        let step = max(1, (max(width, height) + Self.samplesPerSide - 1) / Self.samplesPerSide)
        let stride = layout.bytesPerPixel
        guard width > 0, height > 0, rowBytes >= width * stride,
            pixels.count >= (height - 1) * rowBytes + width * stride
        else {
            self.init(
                red: [Float](repeating: 1, count: cells), green: [Float](repeating: 1, count: cells),
                blue: [Float](repeating: 1, count: cells))
            return
        }
        // A frame of one colour (a border added around a copy) is left out, as long as some picture remains inside.
        let content = Self.contentBox(pixels, width: width, height: height, rowBytes: rowBytes, layout: layout)
        let (left, top) = (content.left, content.top)
        let (innerWidth, innerHeight) = (content.right - content.left, content.bottom - content.top)
        let columnCells = (0..<innerWidth).map { $0 * side / innerWidth }
        for y in Swift.stride(from: 0, to: innerHeight, by: step) {
            let rowCell = y * side / innerHeight * side
            let row = (top + y) * rowBytes
            for x in Swift.stride(from: 0, to: innerWidth, by: step) {
                let (r, g, b) = Self.colour(pixels, at: row + (left + x) * stride, layout: layout)
                let cell = rowCell + columnCells[x]
                sums[cell * 3] += r
                sums[cell * 3 + 1] += g
                sums[cell * 3 + 2] += b
                counts[cell] += 1
            }
        }
        // A picture smaller than the grid leaves cells empty: each takes its nearest sampled neighbour's colour.
        var red = [Float](repeating: 0, count: cells)
        var green = red
        var blue = red
        for cell in 0..<cells {
            var source = cell
            if counts[cell] == 0 {
                let y = min(cell / side * innerHeight / side, innerHeight - 1) / step * step * side / innerHeight
                let x = min(cell % side * innerWidth / side, innerWidth - 1) / step * step * side / innerWidth
                source = y * side + x
            }
            let count = max(counts[source], 1) * 255
            red[cell] = sums[source * 3] / count
            green[cell] = sums[source * 3 + 1] / count
            blue[cell] = sums[source * 3 + 2] / count
        }
        self.init(red: red, green: green, blue: blue)
    }

    /// The share of a side a frame may take at most, and how far (0…255) a frame's pixels may stray from its colour.
    static let largestFrame = 0.1
    static let frameTolerance: Float = 24

    /// The picture within a frame of one colour on any of its sides: the rows and columns at each edge whose
    /// sampled pixels all lie near the corner's colour.
    private static func contentBox(
        _ pixels: Span<UInt8>, width: Int, height: Int, rowBytes: Int, layout: PixelLayout
    ) -> (left: Int, top: Int, right: Int, bottom: Int) {
        let stride = layout.bytesPerPixel
        let frame = colour(pixels, at: 0, layout: layout)
        func isFrame(_ x: Int, _ y: Int) -> Bool {
            let (r, g, b) = colour(pixels, at: y * rowBytes + x * stride, layout: layout)
            return max(abs(r - frame.0), abs(g - frame.1), abs(b - frame.2)) <= frameTolerance
        }
        func isFrameRow(_ y: Int) -> Bool {
            Swift.stride(from: 0, to: width, by: max(1, width / 64)).allSatisfy { isFrame($0, y) }
        }
        func isFrameColumn(_ x: Int) -> Bool {
            Swift.stride(from: 0, to: height, by: max(1, height / 64)).allSatisfy { isFrame(x, $0) }
        }
        let (most, mostAcross) = (Int(Double(height) * largestFrame), Int(Double(width) * largestFrame))
        var (top, bottom, left, right) = (0, height, 0, width)
        while top < most && isFrameRow(top) { top += 1 }
        while height - bottom < most && isFrameRow(bottom - 1) { bottom -= 1 }
        while left < mostAcross && isFrameColumn(left) { left += 1 }
        while width - right < mostAcross && isFrameColumn(right - 1) { right -= 1 }
        // A frame wider than allowed is part of the picture (a sky, a plain backdrop): nothing is left out on that side.
        if top == most { top = 0 }
        if height - bottom == most { bottom = height }
        if left == mostAcross { left = 0 }
        if width - right == mostAcross { right = width }
        return (left, top, right, bottom)
    }

    /// The colour at byte `offset`, 0…255 a channel, seen over white.
    private static func colour(_ pixels: Span<UInt8>, at offset: Int, layout: PixelLayout) -> (Float, Float, Float) {
        switch layout {
        case .rgb:
            return (Float(pixels[offset]), Float(pixels[offset + 1]), Float(pixels[offset + 2]))
        case .rgba:
            let alpha = Float(pixels[offset + 3]) / 255
            return (
                Float(pixels[offset]) * alpha + 255 * (1 - alpha),
                Float(pixels[offset + 1]) * alpha + 255 * (1 - alpha),
                Float(pixels[offset + 2]) * alpha + 255 * (1 - alpha)
            )
        case .premultipliedBGRA:
            let clear = 255 - Float(pixels[offset + 3])
            return (Float(pixels[offset + 2]) + clear, Float(pixels[offset + 1]) + clear, Float(pixels[offset]) + clear)
        }
    }

    /// Each cell's luminance (Rec. 601 weights, on the encoded values), row by row.
    public var luminance: [Float] {
        (0..<red.count).map { 0.299 * red[$0] + 0.587 * green[$0] + 0.114 * blue[$0] }
    }
}
