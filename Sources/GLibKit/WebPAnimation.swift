import CCairo
import CWebP
import Foundation

/// An animated WebP that libwebp's animation decoder composes one frame after another on its canvas, holding that
/// canvas and the one before it, never every frame (gdk-pixbuf's WebP loader keeps them all). Sendable only to be
/// handed over: its owner's lock lets one thread at a time use it.
public final class WebPAnimation: FrameSource, @unchecked Sendable {
    /// The file's bytes, which the decoder reads from for as long as it lives.
    private let bytes: UnsafeMutableRawBufferPointer
    private let decoder: OpaquePointer
    public let width: Int
    public let height: Int
    public private(set) var position = 0
    /// The canvas the decoder composed the current frame on (premultiplied BGRA, cairo's ARGB32 order).
    private var canvas: UnsafeMutablePointer<UInt8>?

    private init(bytes: UnsafeMutableRawBufferPointer, decoder: OpaquePointer, width: Int, height: Int) {
        self.bytes = bytes
        self.decoder = decoder
        self.width = width
        self.height = height
    }

    deinit {
        WebPAnimDecoderDelete(decoder)
        bytes.deallocate()
    }

    /// The first `frameCount` frames of the animation in `data`, at its first frame; nil when libwebp cannot read
    /// them or decode the first. libwebp refuses a whole file for one chunk cut short or one frame it cannot place,
    /// so the file is read up to the frames its header found whole and within limits. The caller has checked the
    /// canvas size its header states.
    public static func read(_ data: Data, frameCount: Int) -> WebPAnimation? {
        let whole = wholeChunksLength(data, frameCount: frameCount)
        guard whole > 12 else { return nil }
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: whole, alignment: 16)
        data.withUnsafeBytes { source in bytes.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[0..<whole])) }
        // The RIFF size says where the file ends: here, after its last whole chunk.
        let riffSize = UInt32(whole - 8)
        for index in 0..<4 { bytes[4 + index] = UInt8(truncatingIfNeeded: riffSize >> (8 * UInt32(index))) }
        var options = WebPAnimDecoderOptions()
        var webp = WebPData(bytes: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), size: whole)
        guard WebPAnimDecoderOptionsInit(&options) != 0 else {
            bytes.deallocate()
            return nil
        }
        options.color_mode = MODE_bgrA
        options.use_threads = 0
        guard let decoder = WebPAnimDecoderNew(&webp, &options) else {
            bytes.deallocate()
            return nil
        }
        var info = WebPAnimInfo()
        guard WebPAnimDecoderGetInfo(decoder, &info) != 0 else {
            WebPAnimDecoderDelete(decoder)
            bytes.deallocate()
            return nil
        }
        let animation = WebPAnimation(
            bytes: bytes, decoder: decoder, width: Int(info.canvas_width), height: Int(info.canvas_height))
        guard animation.decodeNext() else { return nil }
        return animation
    }

    /// The length of the RIFF header and the whole chunks after it in `data`, up to the `frameCount`th frame's.
    private static func wholeChunksLength(_ data: Data, frameCount: Int) -> Int {
        data.withUnsafeBytes { raw in
            let b = raw.bindMemory(to: UInt8.self)
            var offset = 12
            var frames = 0
            while offset + 8 <= b.count && frames < frameCount {
                if b[offset] == 0x41, b[offset + 1] == 0x4E, b[offset + 2] == 0x4D, b[offset + 3] == 0x46 {
                    frames += 1
                }
                let size =
                    Int(b[offset + 4]) | Int(b[offset + 5]) << 8 | Int(b[offset + 6]) << 16
                    | Int(b[offset + 7]) << 24
                let end = offset + 8 + size + size % 2
                // The padding byte of the very last chunk may be missing.
                guard offset + 8 + size <= b.count else { break }
                offset = min(end, b.count)
            }
            return offset
        }
    }

    private func decodeNext() -> Bool {
        guard WebPAnimDecoderHasMoreFrames(decoder) != 0 else { return false }
        var buffer: UnsafeMutablePointer<UInt8>?
        var timestamp: Int32 = 0
        guard WebPAnimDecoderGetNext(decoder, &buffer, &timestamp) != 0, let buffer else {
            canvas = nil
            return false
        }
        canvas = buffer
        return true
    }

    public func restart() {
        WebPAnimDecoderReset(decoder)
        position = 0
        _ = decodeNext()
    }

    public func advance() -> Bool {
        guard canvas != nil, decodeNext() else { return false }
        position += 1
        return true
    }

    public func frame(width: Int, height: Int, scale: Int) -> CairoSurface? {
        guard let canvas,
            let source = cairo_image_surface_create_for_data(
                canvas, CAIRO_FORMAT_ARGB32, Int32(self.width), Int32(self.height), Int32(self.width * 4))
        else { return nil }
        defer { cairo_surface_destroy(source) }
        return CairoSurface.copy(of: source, width: width, height: height, scale: scale)
    }
}
