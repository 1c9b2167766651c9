import Foundation

/// An animated PNG read from its chunks (acTL, fcTL, fdAT) without decoding a pixel: where each frame goes, how long
/// it shows, how it is disposed of and blended, and its compressed data, which `png(ofFrame:)` wraps as a PNG of its
/// own for any PNG decoder (Debian's libpng reads no APNG). Only whole frames count: a file cut short ends with its
/// last whole frame, and a frame that reaches outside the canvas ends the animation before it.
public struct APNGFile: Sendable {
    /// What becomes of a frame's rectangle before the next frame is drawn.
    public enum Dispose: UInt8, Sendable {
        case none = 0
        /// Cleared to transparent.
        case background = 1
        /// Back to what it was before the frame was drawn.
        case previous = 2
    }

    /// How a frame is drawn on what is there.
    public enum Blend: UInt8, Sendable {
        /// Its pixels replace the rectangle's, transparent ones included.
        case source = 0
        case over = 1
    }

    public struct Frame: Sendable, Equatable {
        public let x: Int
        public let y: Int
        public let width: Int
        public let height: Int
        /// Milliseconds, as the file gives it.
        public let delay: Int
        public let dispose: Dispose
        public let blend: Blend
        /// Where its compressed data lies in the file: IDAT payloads, or fdAT payloads after their sequence numbers.
        fileprivate var data: [Range<Int>] = []
    }

    public let width: Int
    public let height: Int
    /// How many times the frames play in all; nil: forever.
    public let plays: Int?
    public let frames: [Frame]
    /// Whether frames were left out: the file is cut short or damaged there, or a frame reaches outside the canvas.
    public let isCutShort: Bool
    private let bytes: Data
    /// The IHDR chunk's payload.
    private let imageHeader: Range<Int>
    /// Whole chunks before the image data that every frame's PNG carries (PLTE, tRNS, gAMA, iCCP…).
    private let shared: [Range<Int>]

    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The animation `bytes` hold, or nil when they are not an APNG of at least two whole frames.
    public static func read(_ bytes: Data) -> APNGFile? {
        let bytes = bytes.startIndex == 0 ? bytes : Data(bytes)
        return bytes.withUnsafeBytes { raw -> APNGFile? in
            let b = raw.bindMemory(to: UInt8.self)
            guard b.count >= 8 + 25, Array(b[0..<8]) == signature else { return nil }
            var parser = Parser()
            var offset = 8
            while !parser.ended {
                guard offset + 12 <= b.count else { break }
                let length = Int(uint32(b, offset))
                let payload = offset + 8
                guard length <= 0x7FFF_FFFF, payload + length + 4 <= b.count else { break }
                let type = String(decoding: UnsafeBufferPointer(rebasing: b[offset + 4..<offset + 8]), as: UTF8.self)
                guard parser.take(type, b, payload: payload..<payload + length, chunk: offset..<payload + length + 4)
                else { break }
                offset = payload + length + 4
            }
            guard let imageHeader = parser.imageHeader, let declared = parser.declaredFrames else { return nil }
            let frames = Array(parser.frames.prefix(declared))
            guard frames.count >= 2 else { return nil }
            return APNGFile(
                width: parser.width, height: parser.height, plays: parser.plays == 0 ? nil : parser.plays,
                frames: frames, isCutShort: !parser.ended || parser.frames.count < declared, bytes: bytes,
                imageHeader: imageHeader, shared: parser.shared)
        }
    }

    /// The chunks in the order they come, gathered into frames.
    private struct Parser {
        var width = 0
        var height = 0
        var imageHeader: Range<Int>?
        var declaredFrames: Int?
        var plays = 0
        var frames: [Frame] = []
        /// The frame whose data chunks are being read.
        var pending: Frame?
        var shared: [Range<Int>] = []
        var seenImageData = false
        var seenFrameControl = false
        /// IEND was reached.
        var ended = false

        /// Takes one whole chunk; false when the animation ends before it (a damaged or invalid chunk).
        mutating func take(_ type: String, _ b: UnsafeBufferPointer<UInt8>, payload: Range<Int>, chunk: Range<Int>)
            -> Bool
        {
            switch type {
            case "IHDR":
                guard payload.count == 13, imageHeader == nil else { return false }
                width = Int(APNGFile.uint32(b, payload.lowerBound))
                height = Int(APNGFile.uint32(b, payload.lowerBound + 4))
                imageHeader = payload
            case "acTL":
                guard payload.count == 8, !seenImageData else { return true }
                declaredFrames = Int(APNGFile.uint32(b, payload.lowerBound))
                plays = Int(APNGFile.uint32(b, payload.lowerBound + 4))
            case "fcTL":
                // The frame before is whole, whatever this one holds.
                finishFrame()
                guard payload.count == 26, let frame = frameControl(b, at: payload.lowerBound) else { return false }
                seenFrameControl = true
                pending = frame
            case "IDAT":
                // acTL comes before the image data: without it this is a still PNG, whose rest is not read.
                guard declaredFrames != nil else { return false }
                seenImageData = true
                // Image data after no fcTL is the default image, which is not part of the animation.
                pending?.data.append(payload)
            case "fdAT":
                guard payload.count > 4, seenImageData else { return false }
                pending?.data.append(payload.lowerBound + 4..<payload.upperBound)
            case "IEND":
                finishFrame()
                ended = true
            default:
                if !seenImageData && !seenFrameControl { shared.append(chunk) }
            }
            return true
        }

        private mutating func finishFrame() {
            if let pending, !pending.data.isEmpty { frames.append(pending) }
            pending = nil
        }

        /// The frame an fcTL payload at `offset` describes, or nil when it is empty or reaches outside the canvas.
        private func frameControl(_ b: UnsafeBufferPointer<UInt8>, at offset: Int) -> Frame? {
            let frameWidth = Int(APNGFile.uint32(b, offset + 4))
            let frameHeight = Int(APNGFile.uint32(b, offset + 8))
            let x = Int(APNGFile.uint32(b, offset + 12))
            let y = Int(APNGFile.uint32(b, offset + 16))
            guard frameWidth > 0, frameHeight > 0, x + frameWidth <= width, y + frameHeight <= height else {
                return nil
            }
            let numerator = Int(b[offset + 20]) << 8 | Int(b[offset + 21])
            let denominator = Int(b[offset + 22]) << 8 | Int(b[offset + 23])
            // The first frame's "previous" is the empty canvas, as "background" leaves it.
            let dispose = Dispose(rawValue: b[offset + 24]) ?? .none
            return Frame(
                x: x, y: y, width: frameWidth, height: frameHeight,
                delay: numerator * 1000 / (denominator == 0 ? 100 : denominator),
                dispose: frames.isEmpty && dispose == .previous ? .background : dispose,
                blend: Blend(rawValue: b[offset + 25]) ?? .source)
        }
    }

    /// When the frames show and how often they play.
    public var timing: FrameTiming { FrameTiming(fileDelays: frames.map(\.delay), plays: plays) }

    /// Frame `index` as a PNG file of its own: the file's header at the frame's size, the chunks every frame shares,
    /// and the frame's data as IDAT chunks.
    public func png(ofFrame index: Int) -> Data {
        let frame = frames[index]
        var header = Data(bytes[imageHeader])
        header.replaceSubrange(0..<8, with: Self.bigEndian(frame.width) + Self.bigEndian(frame.height))
        var png = Data(Self.signature)
        png.append(Self.chunk("IHDR", header))
        for range in shared { png.append(bytes[range]) }
        for range in frame.data { png.append(Self.chunk("IDAT", bytes[range])) }
        png.append(Self.chunk("IEND", Data()))
        return png
    }

    private static func uint32(_ b: UnsafeBufferPointer<UInt8>, _ offset: Int) -> UInt32 {
        UInt32(b[offset]) << 24 | UInt32(b[offset + 1]) << 16 | UInt32(b[offset + 2]) << 8 | UInt32(b[offset + 3])
    }

    private static func bigEndian(_ value: Int) -> Data {
        Data((0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) })
    }

    private static func chunk(_ type: String, _ payload: Data) -> Data {
        var typed = Data(type.utf8)
        typed.append(payload)
        var chunk = bigEndian(payload.count)
        chunk.append(typed)
        chunk.append(bigEndian(Int(crc32(typed))))
        return chunk
    }

    /// PNG's CRC-32 (ISO 3309) of a chunk's type and payload.
    private static let crcTable: [UInt32] = (0..<256).map { n in
        (0..<8).reduce(UInt32(n)) { c, _ in c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    }

    private static func crc32(_ data: Data) -> UInt32 {
        ~data.reduce(UInt32.max) { c, byte in crcTable[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
    }
}
