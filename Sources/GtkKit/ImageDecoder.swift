import CGtk
import CShim
import Foundation

/// A decoded image ready to paint, and the size the file itself has.
public struct DecodedImage: Sendable {
    public let surface: CairoSurface
    public let originalWidth: Int
    public let originalHeight: Int

    public init(surface: CairoSurface, originalWidth: Int, originalHeight: Int) {
        self.surface = surface
        self.originalWidth = originalWidth
        self.originalHeight = originalHeight
    }
}

/// Decoded pixels not yet made paintable (they may be scaled or saved first), upright, and the
/// size the file itself has.
public struct DecodedPicture: Sendable {
    public let pixbuf: Pixbuf
    public let originalWidth: Int
    public let originalHeight: Int

    public init(pixbuf: Pixbuf, originalWidth: Int, originalHeight: Int) {
        self.pixbuf = pixbuf
        self.originalWidth = originalWidth
        self.originalHeight = originalHeight
    }

    /// Scaled down to `width`×`height` pixels if larger, painted at the device `scale`; with
    /// `cornerRadius` points cut round when not 0.
    public func image(width: Int, height: Int, scale: Int, cornerRadius: Double = 0) -> DecodedImage {
        let fitted = width < pixbuf.width || height < pixbuf.height ? pixbuf.scaled(width: width, height: height) : pixbuf
        let surface = cornerRadius > 0 ? fitted.surface(scale: scale, cornerRadius: cornerRadius) : fitted.surface(scale: scale)
        return DecodedImage(surface: surface, originalWidth: originalWidth, originalHeight: originalHeight)
    }
}

/// Why bytes gave no picture; the app words it for the user.
public enum DecodeError: Error, Equatable {
    /// No decoder here knows these bytes (not an image, or a format without a loader installed).
    case notAnImage
    case tooLarge(width: Int, height: Int)
    /// The data ends before the picture does (a download cut short).
    case incomplete
    case damaged
    /// The decoder failed; gdk-pixbuf's own message (in the user's language) when it gave one.
    case undecodable(String?)
}

/// Decodes image bytes with gdk-pixbuf on the calling thread (a worker, never the GUI thread).
/// The size is read first and absurd dimensions are refused before any pixel is decoded.
public enum ImageDecoder {
    /// Images above this many pixels are refused (gdk-pixbuf itself has no cap).
    public static let maximumPixels = 150_000_000
    public static let maximumSide = 40_000
    /// Formats that can't be decoded scaled (GIF, WebP, interlaced PNG…) are decoded whole before
    /// they are scaled: above this many pixels they are refused, which bounds that to ~100 MB.
    /// JPEG scales in the decoder and non-interlaced PNG row by row, so they go up to the cap above.
    public static let maximumUnscaledPixels = 25_000_000
    /// Bytes handed to gdk-pixbuf at a time: a refusal at `size-prepared` stops the feeding, and an
    /// animation is noticed soon after its first frame.
    static let chunkSize = 16 * 1024

    private final class SizeCheck: @unchecked Sendable {
        var width = 0
        var height = 0
        var refused = false
        /// A vector image (SVG): drawn at whatever size is asked, so it is never enlarged as pixels.
        var scalable = false
        /// Checked for its end after decoding: libjpeg fills a JPEG cut short with grey.
        var jpeg = false
        let fitWidth: Int
        let fitHeight: Int
        init(fitWidth: Int, fitHeight: Int) {
            self.fitWidth = fitWidth
            self.fitHeight = fitHeight
        }
    }

    /// `size-prepared`: the first moment the size is known, before pixels are decoded.
    private static let sizePrepared: @convention(c) (UnsafeMutablePointer<GdkPixbufLoader>?, gint, gint, gpointer?) -> Void = { loader, width, height, userData in
        let check = Unmanaged<SizeCheck>.fromOpaque(userData!).takeUnretainedValue()
        check.width = Int(width)
        check.height = Int(height)
        let format = gdk_pixbuf_loader_get_format(loader)
        check.scalable = format.map { gdk_pixbuf_format_is_scalable($0) != 0 } ?? false
        let name = format.flatMap { gdk_pixbuf_format_get_name($0) }
        let scalesInDecoder = name.map { name in defer { g_free(name) }; return String(cString: name) == "jpeg" } ?? false
        check.jpeg = scalesInDecoder
        let cap = scalesInDecoder ? maximumPixels : maximumUnscaledPixels
        let fits = check.scalable && check.fitWidth > 0 && check.fitHeight > 0
        if width <= 0 || height <= 0 || !fits && (Int(width) > maximumSide || Int(height) > maximumSide
            || Int(width) * Int(height) > cap) {
            check.refused = true
            gdk_pixbuf_loader_set_size(loader, 1, 1)
            return
        }
        guard check.fitWidth > 0, check.fitHeight > 0 else { return }
        let factor = min(Double(check.fitWidth) / Double(width), Double(check.fitHeight) / Double(height))
        // A vector image is drawn at the size asked, larger too: crisp in a cell of any size.
        if factor < 1 || check.scalable {
            gdk_pixbuf_loader_set_size(loader, gint(max(1, (Double(width) * factor).rounded())),
                                       gint(max(1, (Double(height) * factor).rounded())))
        }
    }

    /// - Parameters:
    ///   - fit: the largest pixel size wanted (the cell at its device scale); nil for full size.
    ///   - scale: device scale factor the surface is for (2 on HiDPI), so it paints crisp.
    public static func decode(_ bytes: Data, fit: (width: Int, height: Int)?, scale: Int) -> Result<DecodedImage, DecodeError> {
        decodePicture(bytes, fit: fit).map { picture in
            DecodedImage(surface: picture.pixbuf.surface(scale: scale), originalWidth: picture.originalWidth,
                         originalHeight: picture.originalHeight)
        }
    }

    /// The pixels, fitted inside `fit` (nil: full size), not yet a surface.
    public static func decodePicture(_ bytes: Data, fit: (width: Int, height: Int)?) -> Result<DecodedPicture, DecodeError> {
        switch decodePNG(bytes, fit: fit) {
        case .decoded(let pixbuf, let width, let height):
            return .success(DecodedPicture(pixbuf: Pixbuf(taking: pixbuf), originalWidth: width, originalHeight: height))
        case .refused(let error):
            return .failure(error)
        case .notForThisDecoder:
            return decodeWithGdkPixbuf(bytes, fit: fit)
        }
    }

    private enum PNGOutcome {
        case decoded(OpaquePointer, width: Int, height: Int)
        case refused(DecodeError)
        case notForThisDecoder
    }

    /// Non-interlaced PNG, read row by row into the scaled result: a 30000×30000 bomb is refused from
    /// its header, and a 12000×12000 image costs the cell's pixels, not 576 MB.
    private static func decodePNG(_ bytes: Data, fit: (width: Int, height: Int)?) -> PNGOutcome {
        var pixbuf: OpaquePointer?
        var width: gint = 0
        var height: gint = 0
        let result = bytes.withUnsafeBytes { buffer in
            cshim_png_decode_scaled(buffer.bindMemory(to: guchar.self).baseAddress, gsize(buffer.count),
                                    gint(fit?.width ?? 0), gint(fit?.height ?? 0), gint64(maximumPixels),
                                    gint(maximumSide), &pixbuf, &width, &height)
        }
        switch result {
        case CSHIM_PNG_OK:
            guard let pixbuf else { return .refused(.undecodable(nil)) }
            return .decoded(pixbuf, width: Int(width), height: Int(height))
        case CSHIM_PNG_TOO_LARGE: return .refused(.tooLarge(width: Int(width), height: Int(height)))
        case CSHIM_PNG_INCOMPLETE: return .refused(.incomplete)
        case CSHIM_PNG_FAILED: return .refused(.damaged)
        default: return .notForThisDecoder
        }
    }

    private static func decodeWithGdkPixbuf(_ bytes: Data, fit: (width: Int, height: Int)?)
        -> Result<DecodedPicture, DecodeError> {
        let loader = gdk_pixbuf_loader_new()!
        defer { g_object_unref(loader) }
        let check = SizeCheck(fitWidth: fit?.width ?? 0, fitHeight: fit?.height ?? 0)
        let retained = Unmanaged.passRetained(check).toOpaque()
        cshim_signal_connect(loader, "size-prepared", unsafeBitCast(sizePrepared, to: GCallback.self), retained,
                             { userData, _ in Unmanaged<SizeCheck>.fromOpaque(userData!).release() })

        var writeError: UnsafeMutablePointer<GError>?
        var firstFrameOnly = false
        // In chunks: once `size-prepared` refuses the size, not one more byte is decoded; once an
        // animation's first frame is whole, neither is the rest (a cell shows that frame).
        let written = bytes.withUnsafeBytes { buffer in
            let base = buffer.bindMemory(to: guchar.self).baseAddress
            var offset = 0
            while offset < buffer.count && !check.refused && !firstFrameOnly {
                let count = min(chunkSize, buffer.count - offset)
                guard gdk_pixbuf_loader_write(loader, base! + offset, gsize(count), &writeError) != 0 else { return gboolean(0) }
                offset += count
                firstFrameOnly = offset < buffer.count && hasWholeFirstFrame(loader)
            }
            return gboolean(1)
        }
        // Closing is required even after a failed write; its own error is secondary then.
        var closeError: UnsafeMutablePointer<GError>?
        let closed = gdk_pixbuf_loader_close(loader, &closeError)
        let message = (writeError ?? closeError).map { String(cString: $0.pointee.message) }
        let unknownType = (writeError ?? closeError).map {
            $0.pointee.domain == gdk_pixbuf_error_quark() && $0.pointee.code == GDK_PIXBUF_ERROR_UNKNOWN_TYPE.rawValue
        } ?? false
        if let writeError { g_error_free(writeError) }
        if let closeError { g_error_free(closeError) }
        if check.refused { return .failure(.tooLarge(width: check.width, height: check.height)) }
        // Closing an animation cut short after its first frame reports the rest as missing: expected.
        guard written != 0, closed != 0 || firstFrameOnly, let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader) else {
            if unknownType || check.width == 0 { return .failure(.notAnImage) }
            return .failure(.undecodable(message))
        }
        if check.jpeg && !reachesEndOfImage(bytes) { return .failure(.incomplete) }
        // Photos carry their rotation in EXIF; show them upright and report the upright size.
        let oriented = Pixbuf(taking: gdk_pixbuf_apply_embedded_orientation(pixbuf)!)
        let swapped = oriented.width != Int(gdk_pixbuf_get_width(pixbuf))
        var originalWidth = swapped ? check.height : check.width
        var originalHeight = swapped ? check.width : check.height
        if check.scalable {
            // A vector image has no pixel size of its own: it says it is as large as any image may
            // be, so every cell asks for it at the cell's own size rather than enlarging pixels.
            let grow = Double(maximumSide) / Double(max(originalWidth, originalHeight, 1))
            originalWidth = max(1, Int((Double(originalWidth) * grow).rounded()))
            originalHeight = max(1, Int((Double(originalHeight) * grow).rounded()))
        }
        return .success(DecodedPicture(pixbuf: oriented, originalWidth: originalWidth, originalHeight: originalHeight))
    }

    /// Whether a JPEG's bytes reach its end-of-image marker: libjpeg fills a file cut short with grey and
    /// only warns. Segments are skipped by their length and scan data up to its next marker, so the end of
    /// an EXIF thumbnail does not count, nor do bytes after the image's end.
    private static func reachesEndOfImage(_ bytes: Data) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 2
            while offset + 1 < buffer.count {
                guard buffer[offset] == 0xFF else {
                    offset += 1
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

    /// Whether the loader holds an animation whose first frame is complete (a second one has begun).
    private static func hasWholeFirstFrame(_ loader: UnsafeMutablePointer<GdkPixbufLoader>) -> Bool {
        guard let animation = gdk_pixbuf_loader_get_animation(loader), gdk_pixbuf_animation_is_static_image(animation) == 0,
              let frames = gdk_pixbuf_animation_get_iter(animation, nil) else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(frames)) }
        return gdk_pixbuf_animation_iter_on_currently_loading_frame(frames) == 0
    }
}
