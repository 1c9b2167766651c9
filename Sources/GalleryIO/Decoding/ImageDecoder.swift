import Foundation
import GLibKit
import GalleryCore

/// Decodes image bytes on the calling thread (a worker, never the GTK thread) within `ImageLimits`: the
/// header is read first (`ImageHeader`) and an image whose decode would take more than the budget is
/// refused, or decoded smaller, before any decoder sees it. PNG, JPEG, GIF, WebP and BMP, whose headers
/// bound what their decoders do, are decoded here; every other format, and bytes whose header cannot be
/// read, in the decoder process (`DecoderProcess`), whose memory and time are capped whatever its
/// decoder does: a TIFF that fills the size it declares, an AVIF that decodes before it reports a size,
/// an SVG whose filter runs for minutes.
public enum ImageDecoder {
    /// Bytes handed to gdk-pixbuf at a time: a refusal at `size-prepared` stops the feeding, and an
    /// animation is noticed soon after its first frame.
    static let chunkSize = 16 * 1024

    /// The formats decoded in the app's own process: their headers say what decoding them takes.
    static let inProcessFormats: Set<String> = ["PNG", "JPEG", "GIF", "WebP", "BMP"]

    /// The pixels, fitted inside `fit` (the largest pixel size wanted; nil: full size), not yet a surface.
    /// An image that the budget allows only smaller comes back smaller, with its own size.
    public static func decodePicture(_ bytes: Data, fit: (width: Int, height: Int)?) -> Result<
        DecodedImage<Pixbuf>, DecodeError
    > {
        let header = ImageHeader.read(bytes)
        var fit = fit
        if let header {
            guard let allowed = header.fitWithinLimits(fit) else {
                return .failure(.tooLarge(width: header.width, height: header.height))
            }
            fit = allowed
        }
        guard let header, inProcessFormats.contains(header.formatName) else {
            return DecoderProcess.decode(bytes, fit: fit)
        }
        return decodeInThisProcess(bytes, fit: fit)
    }

    /// Decodes here, whatever the format: in the decoder process, or for the formats whose header was read.
    static func decodeInThisProcess(_ bytes: Data, fit: (width: Int, height: Int)?) -> Result<
        DecodedImage<Pixbuf>, DecodeError
    > {
        switch ScaledPNG.decode(
            bytes, fit: fit, maximumPixels: ImageLimits.maximumPixels, maximumSide: ImageLimits.maximumSide)
        {
        case .decoded(let pixbuf, let width, let height):
            return .success(DecodedImage(bitmap: pixbuf, originalWidth: width, originalHeight: height))
        case .tooLarge(let width, let height): return .failure(.tooLarge(width: width, height: height))
        case .incomplete: return .failure(.incomplete)
        case .damaged: return .failure(.damaged)
        case .notForThisDecoder: return decodeWithGdkPixbuf(bytes, fit: fit)
        }
    }

    /// What `size-prepared` found, for the decode that follows.
    private struct SizeCheck {
        var width = 0
        var height = 0
        var refused = false
        /// A vector image (SVG): drawn at whatever size is asked, so it is never enlarged as pixels.
        var scalable = false
        /// Checked for its end after decoding: libjpeg fills a JPEG cut short with grey.
        var jpeg = false
        /// The size a JPEG decoded larger (at libjpeg's DCT scale) is shrunk to afterwards.
        var shrunkSize: (width: Int, height: Int)?
    }

    /// The size to decode at, or a refusal, the moment the size is known.
    private static func decision(
        for prepared: PixbufLoader.Prepared, fit: (width: Int, height: Int)?, check: inout SizeCheck
    ) -> PixbufLoader.SizeDecision {
        check.width = prepared.width
        check.height = prepared.height
        check.scalable = prepared.isScalable
        check.jpeg = prepared.formatName == "jpeg"
        let fits = prepared.isScalable && (fit?.width ?? 0) > 0 && (fit?.height ?? 0) > 0
        // What a decoder that holds the whole picture takes (JPEG's own header was read before).
        let whole = ImageHeader(
            formatName: prepared.formatName ?? "", width: prepared.width, height: prepared.height,
            layout: prepared.formatName == "jpeg"
                ? .dctScaled(coefficientBytes: 0) : .whole(bytesPerPixel: 4, extraBytes: 0))
        if prepared.width <= 0 || prepared.height <= 0 || !fits && !whole.isWithinLimits(fit: fit) {
            check.refused = true
            return .refused
        }
        guard let fit, fit.width > 0, fit.height > 0 else { return .asIs }
        let factor = min(
            Double(fit.width) / Double(prepared.width), Double(fit.height) / Double(prepared.height))
        // A vector image is drawn at the size asked, larger too: crisp in a cell of any size.
        guard factor < 1 || prepared.isScalable else { return .asIs }
        let width = max(1, Int((Double(prepared.width) * factor).rounded()))
        let height = max(1, Int((Double(prepared.height) * factor).rounded()))
        guard check.jpeg else { return .scaled(width: width, height: height) }
        // Told the size of the smallest DCT scale that covers the fit, libjpeg decodes at that scale and the loader
        // scales nothing after: its generic filter costs more than the shrink here.
        check.shrunkSize = (width, height)
        let denominators: [Int] = [8, 4, 2]
        let covering = denominators.first { denominator in
            dctScaled(prepared.width, denominator) >= width && dctScaled(prepared.height, denominator) >= height
        }
        guard let denominator = covering else { return .asIs }
        return .scaled(
            width: dctScaled(prepared.width, denominator), height: dctScaled(prepared.height, denominator))
    }

    /// A side as libjpeg decodes it at DCT scale 1/`denominator`.
    private static func dctScaled(_ side: Int, _ denominator: Int) -> Int {
        (side + denominator - 1) / denominator
    }

    private static func decodeWithGdkPixbuf(_ bytes: Data, fit: (width: Int, height: Int)?) -> Result<
        DecodedImage<Pixbuf>, DecodeError
    > {
        var check = SizeCheck()
        let loader = PixbufLoader { prepared in decision(for: prepared, fit: fit, check: &check) }
        var firstFrameOnly = false
        // In chunks: once `size-prepared` refuses the size, not one more byte is decoded; once an
        // animation's first frame is whole, neither is the rest (a cell shows that frame).
        let written = bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count && !check.refused && !firstFrameOnly {
                let count = min(chunkSize, buffer.count - offset)
                guard loader.write(UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + count])) else {
                    return false
                }
                offset += count
                firstFrameOnly = offset < buffer.count && loader.hasWholeFirstFrame
            }
            return true
        }
        // Closing is required even after a failed write.
        let closed = loader.close()
        if check.refused { return .failure(.tooLarge(width: check.width, height: check.height)) }
        // Closing an animation cut short after its first frame reports the rest as missing: expected.
        guard written, closed || firstFrameOnly || loader.hasWholeFirstFrame, let upright = loader.upright else {
            if loader.failure?.isUnknownFormat ?? false || check.width == 0 { return .failure(.notAnImage) }
            return .failure(.undecodable(loader.failure?.message))
        }
        if check.jpeg && !reachesEndOfImage(bytes) { return .failure(.incomplete) }
        // Photos carry their rotation in EXIF: the upright size is reported.
        let swapped = upright.quarterTurned
        var pixbuf = upright.pixbuf
        if let size = check.shrunkSize {
            let (width, height) = swapped ? (size.height, size.width) : (size.width, size.height)
            if pixbuf.width > width || pixbuf.height > height { pixbuf = pixbuf.shrunk(width: width, height: height) }
        }
        var originalWidth = swapped ? check.height : check.width
        var originalHeight = swapped ? check.width : check.height
        if check.scalable {
            // A vector image has no pixel size of its own: it says it is as large as any image may
            // be, so every cell asks for it at the cell's own size rather than enlarging pixels.
            let grow = Double(ImageLimits.maximumSide) / Double(max(originalWidth, originalHeight, 1))
            originalWidth = max(1, Int((Double(originalWidth) * grow).rounded()))
            originalHeight = max(1, Int((Double(originalHeight) * grow).rounded()))
        }
        return .success(
            DecodedImage(bitmap: pixbuf, originalWidth: originalWidth, originalHeight: originalHeight))
    }

    /// Whether a JPEG's bytes reach its end-of-image marker: libjpeg fills a file cut short with grey and
    /// only warns. Segments are skipped by their length and scan data up to its next marker, so the end of
    /// an EXIF thumbnail does not count, nor do bytes after the image's end. Scan data, most of a photo's bytes, is
    /// skipped with `memchr`, which reads many bytes at a time.
    private static func reachesEndOfImage(_ bytes: Data) -> Bool {
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return false }
            var offset = 2
            while offset + 1 < buffer.count {
                guard buffer[offset] == 0xFF else {
                    guard let marker = memchr(base + offset, 0xFF, buffer.count - offset) else { return false }
                    offset = base.distance(to: UnsafeRawPointer(marker))
                    continue
                }
                switch buffer[offset + 1] {
                case 0xD9: return true
                case 0xFF: offset += 1
                // A stuffed 0xFF byte in scan data, a restart marker, TEM: no length follows.
                case 0x00, 0x01, 0xD0...0xD7: offset += 2
                default:
                    guard offset + 3 < buffer.count else { return false }
                    offset += 2 + (Int(buffer[offset + 2]) << 8 | Int(buffer[offset + 3]))
                }
            }
            return false
        }
    }
}
