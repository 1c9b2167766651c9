import Foundation

/// What an image file declares about its pixels, read from its header before any decoder runs, and the
/// memory its decoder would take: a decoder that ignores gdk-pixbuf's size refusal (TIFF, a progressive
/// JPEG, AVIF, XPM…) is never handed a file whose header asks for more than `ImageLimits.decodeBudgetBytes`.
/// The size is the largest picture the file holds (every TIFF directory, GIF frame, icon entry, `ispe` box).
public struct ImageHeader: Equatable, Sendable {
    /// How the format's decoder holds the picture while it decodes it.
    public enum Layout: Equatable, Sendable {
        /// A few rows at a time straight into the size asked (a PNG that is not interlaced).
        case rowByRow
        /// Scaled by 1/2, 1/4 or 1/8 in the decoder (JPEG), after holding `coefficientBytes` of the whole
        /// image (a progressive or multi-scan JPEG keeps every DCT coefficient until its last scan).
        case dctScaled(coefficientBytes: Int)
        /// Whole at full size: `bytesPerPixel` for each pixel of the largest picture, and `extraBytes`.
        case whole(bytesPerPixel: Int, extraBytes: Int)
    }

    /// The format's name in `ImageFormat.all`, or "XPM", "XBM", "PNM", "TGA" for the legacy formats.
    public let formatName: String
    public let width: Int
    public let height: Int
    public let layout: Layout

    public init(formatName: String, width: Int, height: Int, layout: Layout) {
        self.formatName = formatName
        self.width = width
        self.height = height
        self.layout = layout
    }

    /// Bytes held at the peak of decoding into a picture that fits inside `fit` (nil: whole), and of the
    /// paintable surface made from it: decoder buffers, the decoded pixels, their scaled copy, the surface.
    public func decodeBytes(fit: (width: Int, height: Int)?) -> Int {
        guard width <= ImageLimits.maximumSide, height <= ImageLimits.maximumSide else { return .max }
        let area = width * height
        let factor = fit.map { min(1, Double($0.width) / Double(width), Double($0.height) / Double(height)) } ?? 1
        let output = Int((Double(width) * factor).rounded(.up)) * Int((Double(height) * factor).rounded(.up))
        let surface = output * 4
        switch layout {
        case .rowByRow:
            return width * 8 * 4 + output * 4 + surface
        case .dctScaled(let coefficientBytes):
            let step = [0.125, 0.25, 0.5, 1].first { $0 >= factor } ?? 1
            let decoded = Int((Double(width) * step).rounded(.up)) * Int((Double(height) * step).rounded(.up))
            return coefficientBytes + decoded * 3 + (decoded > output ? output * 3 : 0) + surface
        case .whole(let bytesPerPixel, let extraBytes):
            return product(area, bytesPerPixel, 1) + min(extraBytes, 1 << 50) + (area > output ? output * 4 : 0)
                + surface
        }
    }

    /// Whether decoding within `fit` stays inside every limit of `ImageLimits`.
    public func isWithinLimits(fit: (width: Int, height: Int)?) -> Bool {
        width > 0 && height > 0 && width <= ImageLimits.maximumSide && height <= ImageLimits.maximumSide
            && width * height <= ImageLimits.maximumPixels && decodeBytes(fit: fit) <= ImageLimits.decodeBudgetBytes
    }

    /// `fit` itself when decoding within it stays inside the limits, else the largest fit half as large,
    /// a quarter… that does (the picture is then enlarged where it shows); nil when none does.
    public func fitWithinLimits(_ fit: (width: Int, height: Int)?) -> (width: Int, height: Int)? {
        var candidate = fit ?? (width, height)
        while !isWithinLimits(fit: candidate) {
            guard candidate.width > 1 || candidate.height > 1 else { return nil }
            candidate = (max(1, candidate.width / 2), max(1, candidate.height / 2))
        }
        return candidate
    }

    /// The header of `bytes`; nil when the format has no reader here or its header cannot be read (such
    /// bytes are decoded only in the helper process, whose limits hold whatever the decoder does).
    public static func read(_ bytes: Data) -> ImageHeader? {
        let reader = ByteReader(bytes)
        switch ImageFormat.sniff(bytes.prefix(4096))?.name {
        case "PNG": return png(reader)
        case "JPEG": return jpeg(reader)
        case "GIF": return gif(reader)
        case "WebP": return webP(reader)
        case "BMP": return bmp(reader)
        case "TIFF": return tiff(reader)
        case "ICO": return ico(reader)
        case "AVIF": return isoMedia(reader, name: "AVIF")
        case "HEIF": return isoMedia(reader, name: "HEIF")
        case nil: return legacy(Array(bytes.prefix(4096)))
        default: return nil
        }
    }

    private static func whole(_ name: String, _ width: Int, _ height: Int, bytesPerPixel: Int = 4, extra: Int = 0)
        -> ImageHeader
    {
        ImageHeader(
            formatName: name, width: width, height: height,
            layout: .whole(bytesPerPixel: bytesPerPixel, extraBytes: extra))
    }

    // MARK: Formats

    private static func png(_ r: ByteReader) -> ImageHeader? {
        guard let width = r.u32(16), let height = r.u32(20), let interlace = r.u8(28) else { return nil }
        if interlace == 0 { return ImageHeader(formatName: "PNG", width: width, height: height, layout: .rowByRow) }
        return whole("PNG", width, height)
    }

    /// The frame header (SOFn) and the first scan: a progressive, lossless or arithmetic-coded frame, or a
    /// first scan that does not hold every component, means the decoder keeps every coefficient.
    private static func jpeg(_ r: ByteReader) -> ImageHeader? {
        var offset = 2
        var frame: (width: Int, height: Int, components: Int, sequential: Bool, coefficients: Int)?
        while let marker = r.u8(offset + 1), r.u8(offset) == 0xFF {
            if marker == 0xFF {
                offset += 1
                continue
            }
            guard let length = r.u16be(offset + 2) else { return nil }
            let segment = offset + 4
            switch marker {
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                guard let height = r.u16be(segment + 1), let width = r.u16be(segment + 3),
                    let count = r.u8(segment + 5), count > 0
                else { return nil }
                var sampling: [(h: Int, v: Int)] = []
                for index in 0..<count {
                    guard let factors = r.u8(segment + 6 + index * 3 + 1) else { return nil }
                    sampling.append((max(1, factors >> 4), max(1, factors & 0x0F)))
                }
                let mcuWidth = 8 * sampling.map(\.h).max()!
                let mcuHeight = 8 * sampling.map(\.v).max()!
                let mcuColumns = (width + mcuWidth - 1) / mcuWidth
                let mcuRows = (height + mcuHeight - 1) / mcuHeight
                // 64 coefficients of 2 bytes per 8×8 block, blocks padded to whole MCUs.
                let coefficients = sampling.reduce(0) { $0 + mcuColumns * $1.h * mcuRows * $1.v * 128 }
                frame = (width, height, count, marker == 0xC0 || marker == 0xC1, coefficients)
            case 0xDA:
                guard let frame, let components = r.u8(segment) else { return nil }
                let allCoefficients = !frame.sequential || components < frame.components
                return ImageHeader(
                    formatName: "JPEG", width: frame.width, height: frame.height,
                    layout: .dctScaled(coefficientBytes: allCoefficients ? frame.coefficients : 0))
            case 0xD9: return nil
            default: break
            }
            offset += 2 + length
        }
        return nil
    }

    /// The logical screen and every frame's image descriptor: the decoder composes a frame on the screen.
    private static func gif(_ r: ByteReader) -> ImageHeader? {
        guard let screenWidth = r.u16le(6), let screenHeight = r.u16le(8), let flags = r.u8(10) else { return nil }
        var offset = 13 + (flags & 0x80 != 0 ? 3 << ((flags & 7) + 1) : 0)
        var frameArea = 0
        var width = screenWidth
        var height = screenHeight
        while let block = r.u8(offset) {
            switch block {
            case 0x2C:
                guard let frameWidth = r.u16le(offset + 5), let frameHeight = r.u16le(offset + 7),
                    let frameFlags = r.u8(offset + 9)
                else { return nil }
                frameArea = max(frameArea, frameWidth * frameHeight)
                width = max(width, frameWidth)
                height = max(height, frameHeight)
                offset += 10 + (frameFlags & 0x80 != 0 ? 3 << ((frameFlags & 7) + 1) : 0) + 1
                guard let end = r.skipSubBlocks(offset) else { return nil }
                offset = end
            case 0x21:
                guard let end = r.skipSubBlocks(offset + 2) else { return nil }
                offset = end
            default:
                offset = Int.max
            }
        }
        // The composed screen and each frame's pixels, four bytes each.
        return whole("GIF", width, height, extra: 4 * frameArea)
    }

    private static func webP(_ r: ByteReader) -> ImageHeader? {
        switch r.ascii(12, count: 4) {
        case "VP8X":
            guard let width = r.u24le(24), let height = r.u24le(27) else { return nil }
            // An animation's canvas is composed from each frame: two canvases.
            return whole("WebP", width + 1, height + 1, bytesPerPixel: 8)
        case "VP8 ":
            guard let width = r.u16le(26), let height = r.u16le(28) else { return nil }
            return whole("WebP", width & 0x3FFF, height & 0x3FFF)
        case "VP8L":
            guard let bits = r.u32le(21) else { return nil }
            return whole("WebP", (bits & 0x3FFF) + 1, (bits >> 14 & 0x3FFF) + 1)
        default: return nil
        }
    }

    private static func bmp(_ r: ByteReader) -> ImageHeader? {
        guard let headerSize = r.u32le(14) else { return nil }
        if headerSize == 12 {
            guard let width = r.u16le(18), let height = r.u16le(20) else { return nil }
            return whole("BMP", width, height)
        }
        guard let width = r.i32le(18), let height = r.i32le(22) else { return nil }
        return whole("BMP", abs(width), abs(height))
    }

    /// Every directory in the chain: its size, and its tile or strip, which the decoder reads whole.
    private static func tiff(_ r: ByteReader) -> ImageHeader? {
        let little = r.u8(0) == 0x49
        guard var directory = r.u32(4, little: little) else { return nil }
        var seen: Set<Int> = []
        var largest: (width: Int, height: Int, buffer: Int)?
        while directory != 0, seen.insert(directory).inserted, seen.count <= 64 {
            guard let count = r.u16(directory, little: little) else { return nil }
            var tags: [Int: Int] = [:]
            for index in 0..<count {
                let entry = directory + 2 + index * 12
                guard let tag = r.u16(entry, little: little), let type = r.u16(entry + 2, little: little),
                    let valueCount = r.u32(entry + 4, little: little)
                else { return nil }
                let size = type == 3 ? 2 : type == 4 ? 4 : 0
                guard size > 0, valueCount > 0 else { continue }
                let at = valueCount * size <= 4 ? entry + 8 : r.u32(entry + 8, little: little) ?? -1
                tags[tag] = size == 2 ? r.u16(at, little: little) : r.u32(at, little: little)
            }
            guard let width = tags[256], let height = tags[257] else { return nil }
            let samples = max(tags[277] ?? 1, 1)
            let bits = max(tags[258] ?? 1, 1)
            let rows = min(max(tags[278] ?? height, 1), height)
            let tile = product(tags[322] ?? 0, tags[323] ?? 0, 1)
            let buffer = product(tile > 0 ? tile : product(rows, width, 1), samples, bits) / 8
            if product(width, height, 1) >= (largest.map { product($0.width, $0.height, 1) } ?? -1) {
                largest = (width, height, max(buffer, largest?.buffer ?? 0))
            }
            guard let next = r.u32(directory + 2 + count * 12, little: little) else { break }
            directory = next
        }
        guard let largest else { return nil }
        return whole("TIFF", largest.width, largest.height, extra: largest.buffer)
    }

    /// Every entry of the directory, each sized by the picture it holds (a PNG's own header, a bitmap's
    /// header): the directory's bytes say at most 256.
    private static func ico(_ r: ByteReader) -> ImageHeader? {
        guard let count = r.u16le(4), count > 0 else { return nil }
        var largest: (width: Int, height: Int)?
        for index in 0..<count {
            let entry = 6 + index * 16
            guard let listedWidth = r.u8(entry), let listedHeight = r.u8(entry + 1),
                let offset = r.u32le(entry + 12)
            else { return nil }
            var width = listedWidth == 0 ? 256 : listedWidth
            var height = listedHeight == 0 ? 256 : listedHeight
            if r.u32(offset, little: false) == 0x8950_4E47 {
                guard let pngWidth = r.u32(offset + 16, little: false),
                    let pngHeight = r.u32(offset + 20, little: false)
                else { return nil }
                (width, height) = (max(width, pngWidth), max(height, pngHeight))
            } else if let bitmapWidth = r.i32le(offset + 4), let bitmapHeight = r.i32le(offset + 8) {
                (width, height) = (max(width, abs(bitmapWidth)), max(height, abs(bitmapHeight) / 2))
            }
            if product(width, height, 1) > (largest.map { product($0.width, $0.height, 1) } ?? -1) {
                largest = (width, height)
            }
        }
        guard let largest else { return nil }
        // The entry's own pixels and the picture made of them.
        return whole("ICO", largest.width, largest.height, bytesPerPixel: 8)
    }

    /// The `ispe` (image spatial extents) boxes of an ISO media file: the largest item, grids included.
    private static func isoMedia(_ r: ByteReader, name: String) -> ImageHeader? {
        var largest: (width: Int, height: Int)?
        var boxes = 0
        func walk(_ start: Int, _ end: Int) {
            var offset = start
            while offset + 8 <= end, boxes < 10_000 {
                boxes += 1
                guard let size32 = r.u32(offset, little: false), let type = r.ascii(offset + 4, count: 4) else {
                    return
                }
                var header = 8
                var size = size32
                if size32 == 1 {
                    guard let large = r.u64be(offset + 8) else { return }
                    size = large
                    header = 16
                } else if size32 == 0 {
                    size = end - offset
                }
                guard size >= header, size <= end - offset else { return }
                switch type {
                case "meta": walk(offset + header + 4, offset + size)
                case "iprp", "ipco", "moov", "trak", "mdia", "minf", "stbl": walk(offset + header, offset + size)
                case "ispe":
                    if let width = r.u32(offset + header + 4, little: false),
                        let height = r.u32(offset + header + 8, little: false),
                        product(width, height, 1) > (largest.map { product($0.width, $0.height, 1) } ?? -1)
                    {
                        largest = (width, height)
                    }
                default: break
                }
                offset += size
            }
        }
        walk(0, r.count)
        guard let largest else { return nil }
        // The decoded 8-bit YUV planes (4:2:0: 1.5 bytes a pixel) and the RGB(A) picture made from them.
        return whole(name, largest.width, largest.height, bytesPerPixel: 5)
    }

    /// XPM, XBM and PNM state their size in text at the start; TGA in a fixed binary header.
    private static func legacy(_ bytes: [UInt8]) -> ImageHeader? {
        let head = String(decoding: bytes.prefix(4096), as: UTF8.self)
        if head.hasPrefix("/* XPM */") {
            // The first string holds "width height colours characters-per-pixel".
            guard let quote = head.firstIndex(of: "\"") else { return nil }
            let numbers = head[head.index(after: quote)...].prefix { $0 != "\"" }.split(separator: " ")
                .compactMap { Int($0) }
            guard numbers.count >= 4 else { return nil }
            // Every pixel as RGBA, and the decoder's table of colours.
            return whole("XPM", numbers[0], numbers[1], extra: product(numbers[2], 64, 1))
        }
        if head.hasPrefix("#define") {
            var width: Int?
            var height: Int?
            for line in head.split(separator: "\n") where line.hasPrefix("#define") {
                let words = line.split(separator: " ", omittingEmptySubsequences: true)
                guard words.count >= 3, let value = Int(words[2]) else { continue }
                if words[1].hasSuffix("_width") { width = value }
                if words[1].hasSuffix("_height") { height = value }
            }
            guard let width, let height else { return nil }
            return whole("XBM", width, height, bytesPerPixel: 5)
        }
        if bytes.count > 2, bytes[0] == UInt8(ascii: "P"), (UInt8(ascii: "1")...UInt8(ascii: "6")).contains(bytes[1]) {
            let text = head.split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: " ")
            let numbers = text.dropFirst(2).split(whereSeparator: \.isWhitespace).prefix(2).compactMap { Int($0) }
            guard numbers.count == 2 else { return nil }
            return whole("PNM", numbers[0], numbers[1], bytesPerPixel: 3)
        }
        return nil
    }
}

/// `a × b × c`, or `Int.max` past it: sizes read from a file can be anything up to 2³².
private func product(_ a: Int, _ b: Int, _ c: Int) -> Int {
    let (ab, overflow) = a.multipliedReportingOverflow(by: b)
    let (abc, overflowAgain) = ab.multipliedReportingOverflow(by: c)
    return overflow || overflowAgain ? .max : abc
}

/// Bounds-checked reads of integers from a file's bytes: nil past the end.
private struct ByteReader {
    let bytes: Data
    var count: Int { bytes.count }

    init(_ bytes: Data) { self.bytes = bytes }

    func u8(_ at: Int) -> Int? { at >= 0 && at < bytes.count ? Int(bytes[bytes.startIndex + at]) : nil }

    func u16(_ at: Int, little: Bool) -> Int? {
        guard let a = u8(at), let b = u8(at + 1) else { return nil }
        return little ? a | b << 8 : a << 8 | b
    }

    func u32(_ at: Int, little: Bool) -> Int? {
        guard let a = u16(at, little: little), let b = u16(at + 2, little: little) else { return nil }
        return little ? a | b << 16 : a << 16 | b
    }

    func u16le(_ at: Int) -> Int? { u16(at, little: true) }
    func u16be(_ at: Int) -> Int? { u16(at, little: false) }
    func u24le(_ at: Int) -> Int? {
        guard let a = u16le(at), let b = u8(at + 2) else { return nil }
        return a | b << 16
    }
    func u32le(_ at: Int) -> Int? { u32(at, little: true) }
    func u32(_ at: Int) -> Int? { u32(at, little: false) }
    func i32le(_ at: Int) -> Int? { u32le(at).map { Int(Int32(truncatingIfNeeded: $0)) } }

    func u64be(_ at: Int) -> Int? {
        guard let high = u32(at), let low = u32(at + 4), high < 1 << 30 else { return nil }
        return high << 32 | low
    }

    func ascii(_ at: Int, count: Int) -> String? {
        guard at >= 0, at + count <= bytes.count else { return nil }
        return String(decoding: bytes[bytes.startIndex + at..<bytes.startIndex + at + count], as: UTF8.self)
    }

    /// The offset after a GIF's data sub-blocks that begin at `at` (each a length byte, the last 0).
    func skipSubBlocks(_ at: Int) -> Int? {
        var offset = at
        while let length = u8(offset) {
            offset += 1 + length
            if length == 0 { return offset }
        }
        return nil
    }
}
