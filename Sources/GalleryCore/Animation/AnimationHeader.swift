import Foundation

/// What an animated GIF, WebP or PNG (APNG) says of its frames, read from its blocks or chunks without decoding a
/// pixel: the canvas, each frame's delay and the loop count. Only whole frames count: a file cut short ends with its last whole frame, and a
/// frame that declares a size beyond `ImageLimits` ends the animation before it; a canvas beyond them is no animation.
public struct AnimationHeader: Sendable, Equatable {
    public enum Format: Sendable, Equatable {
        case gif
        case webp
        case png
    }

    public let format: Format
    public let width: Int
    public let height: Int
    public let timing: FrameTiming
    /// Whether frames were left out: the file is cut short or damaged there, or a frame is too large.
    public let isCutShort: Bool

    /// How many frames play (the whole ones).
    public var frameCount: Int { timing.frameCount }
    /// One play of every frame, in milliseconds, delays as shown.
    public var duration: Int { timing.duration }

    /// The animation `bytes` hold, or nil when they are not an animated GIF, WebP or PNG of at least two whole frames.
    public static func read(_ bytes: Data) -> AnimationHeader? {
        bytes.withUnsafeBytes { buffer in
            let b = buffer.bindMemory(to: UInt8.self)
            var header: AnimationHeader?
            if b.count >= 13, b[0] == 0x47, b[1] == 0x49, b[2] == 0x46 { header = readGIF(b) }
            if b.count >= 30, b[0] == 0x52, b[1] == 0x49, b[8] == 0x57, b[9] == 0x45 { header = readWebP(b) }
            if b.count >= 8, b[0] == 0x89, b[1] == 0x50, b[2] == 0x4E, b[3] == 0x47, let png = APNGFile.read(bytes) {
                header = AnimationHeader(
                    format: .png, width: png.width, height: png.height, timing: png.timing, isCutShort: png.isCutShort)
            }
            guard let header, header.width > 0, header.height > 0,
                fitsLimits(width: header.width, height: header.height)
            else { return nil }
            return header
        }
    }

    private static func fitsLimits(width: Int, height: Int) -> Bool {
        width <= ImageLimits.maximumSide && height <= ImageLimits.maximumSide
            && width * height <= ImageLimits.maximumPixels
    }

    private static func uint16(_ b: UnsafeBufferPointer<UInt8>, _ offset: Int) -> Int {
        Int(b[offset]) | Int(b[offset + 1]) << 8
    }

    private static func uint24(_ b: UnsafeBufferPointer<UInt8>, _ offset: Int) -> Int {
        Int(b[offset]) | Int(b[offset + 1]) << 8 | Int(b[offset + 2]) << 16
    }

    // MARK: GIF

    /// The offset after the data sub-blocks that start at `offset`, or nil when they run past the end.
    private static func skipSubBlocks(_ b: UnsafeBufferPointer<UInt8>, from offset: Int) -> Int? {
        var offset = offset
        while offset < b.count {
            let size = Int(b[offset])
            offset += 1
            if size == 0 { return offset }
            offset += size
        }
        return nil
    }

    private static func readGIF(_ b: UnsafeBufferPointer<UInt8>) -> AnimationHeader? {
        guard b[3] == 0x38, b[4] == 0x37 || b[4] == 0x39, b[5] == 0x61 else { return nil }
        let width = uint16(b, 6)
        let height = uint16(b, 8)
        var offset = 13 + (b[10] & 0x80 != 0 ? 3 << (Int(b[10] & 0x07) + 1) : 0)
        var delays: [Int] = []
        var pendingDelay = 0
        var loops: Int?
        var cutShort = true
        scan: while offset < b.count {
            switch b[offset] {
            case 0x21:
                guard offset + 2 < b.count else { break scan }
                let label = b[offset + 1]
                let body = offset + 2
                if label == 0xF9, b[body] == 4, body + 4 < b.count {
                    pendingDelay = uint16(b, body + 2) * 10
                } else if label == 0xFF, b[body] == 11, body + 16 < b.count,
                    isLoopExtension(b, body + 1), b[body + 12] == 3, b[body + 13] == 1
                {
                    loops = uint16(b, body + 14)
                }
                guard let next = skipSubBlocks(b, from: body) else { break scan }
                offset = next
            case 0x2C:
                guard offset + 10 < b.count else { break scan }
                let frameWidth = uint16(b, offset + 5)
                let frameHeight = uint16(b, offset + 7)
                guard fitsLimits(width: frameWidth, height: frameHeight) else { break scan }
                let flags = b[offset + 9]
                // The local colour table, then the LZW code size.
                let data = offset + 10 + (flags & 0x80 != 0 ? 3 << (Int(flags & 0x07) + 1) : 0) + 1
                guard data <= b.count, let next = skipSubBlocks(b, from: data) else { break scan }
                delays.append(pendingDelay)
                pendingDelay = 0
                offset = next
            case 0x3B:
                cutShort = false
                break scan
            default:
                break scan
            }
        }
        guard delays.count >= 2 else { return nil }
        // NETSCAPE2.0's count is of repeats after the first play, 0 for ever; without it a GIF plays once.
        let plays: Int? = loops.map { $0 == 0 ? nil : $0 + 1 } ?? 1
        return AnimationHeader(
            format: .gif, width: width, height: height, timing: FrameTiming(fileDelays: delays, plays: plays),
            isCutShort: cutShort)
    }

    /// "NETSCAPE2.0" or "ANIMEXTS1.0" at `offset`.
    private static func isLoopExtension(_ b: UnsafeBufferPointer<UInt8>, _ offset: Int) -> Bool {
        let name = String(decoding: UnsafeBufferPointer(rebasing: b[offset..<offset + 11]), as: UTF8.self)
        return name == "NETSCAPE2.0" || name == "ANIMEXTS1.0"
    }

    // MARK: WebP

    private static func readWebP(_ b: UnsafeBufferPointer<UInt8>) -> AnimationHeader? {
        guard b[2] == 0x46, b[3] == 0x46, b[10] == 0x42, b[11] == 0x50,
            b[12] == 0x56, b[13] == 0x50, b[14] == 0x38, b[15] == 0x58,  // VP8X
            b[20] & 0x02 != 0  // the animation flag
        else { return nil }
        let width = uint24(b, 24) + 1
        let height = uint24(b, 27) + 1
        var offset = 30
        var delays: [Int] = []
        var loops = 0
        var cutShort = false
        while offset + 8 <= b.count {
            let fourCC = String(decoding: UnsafeBufferPointer(rebasing: b[offset..<offset + 4]), as: UTF8.self)
            let size = uint24(b, offset + 4) | Int(b[offset + 7]) << 24
            let payload = offset + 8
            guard payload + size <= b.count else {
                cutShort = true
                break
            }
            if fourCC == "ANIM", size >= 6 {
                loops = uint16(b, payload + 4)
            } else if fourCC == "ANMF", size >= 16 {
                guard fitsLimits(width: uint24(b, payload + 6) + 1, height: uint24(b, payload + 9) + 1) else {
                    cutShort = true
                    break
                }
                delays.append(uint24(b, payload + 12))
            }
            offset = payload + size + size % 2
        }
        guard delays.count >= 2 else { return nil }
        return AnimationHeader(
            format: .webp, width: width, height: height,
            timing: FrameTiming(fileDelays: delays, plays: loops == 0 ? nil : loops), isCutShort: cutShort)
    }
}
