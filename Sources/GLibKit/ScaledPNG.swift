import CGLib
import CShim
import Foundation

/// libpng reading a non-interlaced PNG row by row straight into its scaled size (`png_scaled.c`), so a
/// huge PNG costs the result's pixels; refused from its header above the given caps.
public enum ScaledPNG {
    public enum Outcome {
        case decoded(Pixbuf, originalWidth: Int, originalHeight: Int)
        case tooLarge(width: Int, height: Int)
        case incomplete
        case damaged
        /// Not a PNG this decoder reads (another format, or interlaced): another decoder's turn.
        case notForThisDecoder
    }

    /// - Parameter fit: the largest size wanted; nil for the full size.
    public static func decode(
        _ bytes: Data, fit: (width: Int, height: Int)?, maximumPixels: Int, maximumSide: Int
    ) -> Outcome {
        var pixbuf: OpaquePointer?
        var width: gint = 0
        var height: gint = 0
        let result = bytes.withUnsafeBytes { buffer in
            cshim_png_decode_scaled(
                buffer.bindMemory(to: guchar.self).baseAddress, gsize(buffer.count), gint(fit?.width ?? 0),
                gint(fit?.height ?? 0), gint64(maximumPixels), gint(maximumSide), &pixbuf, &width, &height)
        }
        switch result {
        case CSHIM_PNG_OK:
            guard let pixbuf else { return .damaged }
            return .decoded(Pixbuf(taking: pixbuf), originalWidth: Int(width), originalHeight: Int(height))
        case CSHIM_PNG_TOO_LARGE: return .tooLarge(width: Int(width), height: Int(height))
        case CSHIM_PNG_INCOMPLETE: return .incomplete
        case CSHIM_PNG_FAILED: return .damaged
        default: return .notForThisDecoder
        }
    }
}
