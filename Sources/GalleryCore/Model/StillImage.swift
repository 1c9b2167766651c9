import Foundation

/// A cell shows an animation's first frame. gdk-pixbuf's WebP loader decodes every frame of an
/// animated WebP before it hands over the first (40 frames of 800×600: 1.1 s instead of 15 ms), so
/// the first frame is taken out of the file here and given to the decoder as a still WebP.
public enum StillImage {
    /// `bytes` themselves, or for an animated WebP whose first frame covers the whole canvas, a
    /// still WebP of that frame.
    public static func firstFrame(of bytes: Data) -> Data {
        // Only a WebP is copied to be read: a large answer of another kind is not held twice while it decodes.
        guard bytes.prefix(4).elementsEqual("RIFF".utf8), bytes.dropFirst(8).prefix(4).elementsEqual("WEBP".utf8) else {
            return bytes
        }
        return firstWebPFrame(Array(bytes)).map { Data($0) } ?? bytes
    }

    private struct Chunk {
        let fourCC: String
        let payload: ArraySlice<UInt8>
        /// The chunk as it is in the file: header, payload and the padding to an even size.
        let whole: ArraySlice<UInt8>
    }

    /// RIFF chunks from `start` to the end: a four-letter code, a little-endian size, the payload padded to even.
    private static func chunks(_ b: [UInt8], from start: Int, to end: Int) -> [Chunk]? {
        var chunks: [Chunk] = []
        var offset = start
        while offset + 8 <= end {
            let size = Int(uint24(b, offset + 4)) | Int(b[offset + 7]) << 24
            let payloadEnd = offset + 8 + size
            guard size >= 0, payloadEnd <= end else { return nil }
            let padded = min(payloadEnd + size % 2, end)
            chunks.append(
                Chunk(
                    fourCC: String(decoding: b[offset..<offset + 4], as: UTF8.self),
                    payload: b[offset + 8..<payloadEnd], whole: b[offset..<padded]))
            offset = padded
        }
        return chunks
    }

    private static func uint24(_ b: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(b[offset]) | UInt32(b[offset + 1]) << 8 | UInt32(b[offset + 2]) << 16
    }

    private static func firstWebPFrame(_ b: [UInt8]) -> [UInt8]? {
        guard b.count >= 30, b[0..<4].elementsEqual("RIFF".utf8), b[8..<12].elementsEqual("WEBP".utf8),
            let fileChunks = chunks(b, from: 12, to: b.count),
            let header = fileChunks.first, header.fourCC == "VP8X", header.payload.count >= 10,
            header.payload[header.payload.startIndex] & 0x02 != 0,  // the animation flag
            let frame = fileChunks.first(where: { $0.fourCC == "ANMF" }), frame.payload.count > 16
        else { return nil }
        let p = Array(header.payload)
        let canvasWidth = uint24(p, 4) + 1
        let canvasHeight = uint24(p, 7) + 1
        let f = Array(frame.payload)
        // A first frame smaller than the canvas, or moved on it, is left to the decoder to compose.
        guard uint24(f, 0) == 0, uint24(f, 3) == 0, uint24(f, 6) + 1 == canvasWidth, uint24(f, 9) + 1 == canvasHeight,
            let image = chunks(f, from: 16, to: f.count),
            image.contains(where: { $0.fourCC == "VP8 " || $0.fourCC == "VP8L" })
        else { return nil }
        let hasAlpha = image.contains { $0.fourCC == "ALPH" || $0.fourCC == "VP8L" }
        // VP8X: the alpha flag when the frame has transparency, and the canvas's size less one.
        var still: [UInt8] = Array("VP8X".utf8) + [10, 0, 0, 0, hasAlpha ? 0x10 : 0, 0, 0, 0]
        still += Array(p[4..<10])
        for chunk in image where ["ALPH", "VP8 ", "VP8L"].contains(chunk.fourCC) { still += chunk.whole }
        let size = UInt32(4 + still.count)
        return Array("RIFF".utf8) + [
            UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24),
        ]
            + Array("WEBP".utf8) + still
    }
}
