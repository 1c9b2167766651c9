import CGtk
import CShim
import Foundation

/// A decoded image ready to paint, and the size the file itself has.
public struct DecodedImage: Sendable {
    public let surface: CairoSurface
    public let originalWidth: Int
    public let originalHeight: Int
}

public enum DecodeError: Error, Equatable, CustomStringConvertible {
    case notAnImage
    case tooLarge(width: Int, height: Int)
    case failed(String)

    public var description: String {
        switch self {
        case .notAnImage: "not an image"
        case .tooLarge(let width, let height): "image too large (\(width)×\(height))"
        case .failed(let message): message
        }
    }
}

/// Decodes image bytes with gdk-pixbuf on the calling thread (a worker, never the GUI thread).
/// The size is read first and absurd dimensions are refused before any pixel is decoded.
public enum ImageDecoder {
    /// Images above this many pixels are refused (gdk-pixbuf itself has no cap).
    public static let maximumPixels = 150_000_000
    public static let maximumSide = 40_000

    private final class SizeCheck: @unchecked Sendable {
        var width = 0
        var height = 0
        var refused = false
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
        if width <= 0 || height <= 0 || Int(width) > maximumSide || Int(height) > maximumSide
            || Int(width) * Int(height) > maximumPixels {
            check.refused = true
            gdk_pixbuf_loader_set_size(loader, 1, 1)
            return
        }
        guard check.fitWidth > 0, check.fitHeight > 0 else { return }
        let factor = min(Double(check.fitWidth) / Double(width), Double(check.fitHeight) / Double(height))
        if factor < 1 {
            gdk_pixbuf_loader_set_size(loader, gint(max(1, (Double(width) * factor).rounded())),
                                       gint(max(1, (Double(height) * factor).rounded())))
        }
    }

    /// - Parameters:
    ///   - fit: the largest pixel size wanted (the cell at its device scale); nil for full size.
    ///   - scale: device scale factor the surface is for (2 on HiDPI), so it paints crisp.
    public static func decode(_ bytes: Data, fit: (width: Int, height: Int)?, scale: Int) -> Result<DecodedImage, DecodeError> {
        let loader = gdk_pixbuf_loader_new()!
        defer { g_object_unref(loader) }
        let check = SizeCheck(fitWidth: fit?.width ?? 0, fitHeight: fit?.height ?? 0)
        let retained = Unmanaged.passRetained(check).toOpaque()
        cshim_signal_connect(loader, "size-prepared", unsafeBitCast(sizePrepared, to: GCallback.self), retained,
                             { userData, _ in Unmanaged<SizeCheck>.fromOpaque(userData!).release() })

        var writeError: UnsafeMutablePointer<GError>?
        let written = bytes.withUnsafeBytes { buffer in
            gdk_pixbuf_loader_write(loader, buffer.bindMemory(to: guchar.self).baseAddress, gsize(buffer.count), &writeError)
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
        guard written != 0, closed != 0, let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader) else {
            if unknownType || check.width == 0 { return .failure(.notAnImage) }
            return .failure(.failed(message ?? "the image could not be decoded"))
        }
        // Photos carry their rotation in EXIF; show them upright and report the upright size.
        let oriented = gdk_pixbuf_apply_embedded_orientation(pixbuf)!
        defer { g_object_unref(UnsafeMutableRawPointer(oriented)) }
        let swapped = gdk_pixbuf_get_width(oriented) != gdk_pixbuf_get_width(pixbuf)
        let surface = gdk_cairo_surface_create_from_pixbuf(oriented, gint(max(scale, 1)), nil)!
        let pixelWidth = Double(gdk_pixbuf_get_width(oriented))
        let pixelHeight = Double(gdk_pixbuf_get_height(oriented))
        let image = CairoSurface(taking: surface, logicalWidth: pixelWidth / Double(max(scale, 1)),
                                 logicalHeight: pixelHeight / Double(max(scale, 1)))
        return .success(DecodedImage(surface: image,
                                     originalWidth: swapped ? check.height : check.width,
                                     originalHeight: swapped ? check.width : check.height))
    }
}
