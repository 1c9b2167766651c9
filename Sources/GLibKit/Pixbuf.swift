import CCairo
import CGLib
import CGdkPixbuf
import CShim
import Foundation

/// A GdkPixbuf: decoded pixels, immutable once made, so it can be handed between threads.
public final class Pixbuf: Sendable {
    private let handle: ReadOnlyPointer
    var pixbuf: OpaquePointer { handle.pointer }

    /// Takes over a reference the caller owned.
    init(taking pixbuf: OpaquePointer) {
        handle = ReadOnlyPointer(pointer: pixbuf)
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }

    public var width: Int { Int(gdk_pixbuf_get_width(pixbuf)) }
    public var height: Int { Int(gdk_pixbuf_get_height(pixbuf)) }

    /// Reads a thumbnail (a PNG of at most `maximumSide` pixels a side) whole, with its text chunks, without
    /// verifying its checksums; nil if it cannot be read, or if its text before the pixels gives a key of
    /// `expectedText` another value: another file's thumbnail is not decoded to find that out.
    public static func loadThumbnail(
        contentsOf path: String, maximumSide: Int = 4096, expectedText: [(key: String, value: String)] = []
    ) -> Pixbuf? {
        let pixbuf = withCStrings(expectedText.map(\.key)) { keys in
            withCStrings(expectedText.map(\.value)) { values in
                cshim_png_read_thumbnail(path, gint(maximumSide), keys, values, gint(expectedText.count))
            }
        }
        return pixbuf.map { Pixbuf(taking: $0) }
    }

    /// The image in the file at `path`, read by its loader's own file reader (no incremental loading, no size
    /// check on the way: the caller has checked the size its header states); nil if it cannot be read.
    public static func load(contentsOf path: String) -> Pixbuf? {
        gdk_pixbuf_new_from_file(path, nil).map { Pixbuf(taking: $0) }
    }

    /// A text chunk of the file it was read from (`tEXt::Thumb::URI` names "Thumb::URI").
    public func text(_ key: String) -> String? {
        gdk_pixbuf_get_option(pixbuf, "tEXt::" + key).map { String(cString: $0) }
    }

    /// Scaled to exactly `width`×`height`, each output pixel the average of the pixels it covers.
    public func scaled(width: Int, height: Int) -> Pixbuf {
        Pixbuf(taking: gdk_pixbuf_scale_simple(pixbuf, gint(max(width, 1)), gint(max(height, 1)), GDK_INTERP_BILINEAR)!)
    }

    /// Shrunk to `width`×`height` by averaging the area each new pixel covers, as `scaled` does, in a fraction of
    /// its time for 8-bit RGB without alpha (a JPEG's pixels); other pixels are scaled.
    public func shrunk(width: Int, height: Int) -> Pixbuf {
        guard let made = cshim_pixbuf_shrunk(pixbuf, gint(width), gint(height)) else {
            return scaled(width: width, height: height)
        }
        return Pixbuf(taking: made)
    }

    /// A cairo surface of these pixels for a device `scale` (2 on HiDPI: half as many points).
    /// Any thread may make one: it touches no display.
    public func surface(scale: Int) -> CairoSurface {
        let surface = cshim_image_surface_from_pixbuf(pixbuf, 0)!
        cairo_surface_set_device_scale(surface, Double(max(scale, 1)), Double(max(scale, 1)))
        return CairoSurface(
            taking: surface, logicalWidth: Double(width) / Double(max(scale, 1)),
            logicalHeight: Double(height) / Double(max(scale, 1)))
    }

    /// These pixels at `width`×`height` in a cairo surface for a device `scale`; with `cornerRadius` points cut
    /// round (antialiased, transparent outside) when not 0: painted pixel for pixel into a cell of its size it
    /// needs no clip path, which X11 rasterizes as trapezoids in every frame. Shrunk by at most half (a cell from
    /// the thumbnail that covers it), interpolated; else each pixel the average of the pixels it covers. Any
    /// thread may make one: it touches no display.
    public func surface(width: Int, height: Int, scale: Int, cornerRadius: Double = 0) -> CairoSurface {
        let scale = max(scale, 1)
        let interpolated =
            width <= self.width && height <= self.height && 2 * width >= self.width
            && 2 * height >= self.height
        let pixels =
            interpolated || (width, height) == (self.width, self.height) ? self : scaled(width: width, height: height)
        let shrinks = (width, height) != (pixels.width, pixels.height) || cornerRadius > 0
        let made =
            shrinks
            ? cshim_image_surface_from_pixbuf_shrunk(
                pixels.pixbuf, gint(width), gint(height), cornerRadius > 0 ? 1 : 0)!
            : cshim_image_surface_from_pixbuf(pixels.pixbuf, 1)!
        if cornerRadius > 0 { cshim_cut_round_corners(made, cornerRadius * Double(scale)) }
        cairo_surface_set_device_scale(made, Double(scale), Double(scale))
        return CairoSurface(
            taking: made, logicalWidth: Double(width) / Double(scale), logicalHeight: Double(height) / Double(scale),
            cornerRadius: cornerRadius)
    }

    /// A PNG file's bytes with text chunks, its rows unfiltered and stored, not compressed:
    /// thumbnails are read far more often than written, and photos hardly compress in PNG
    /// (Tests/benchmarks/README.md). Nil if encoding failed.
    public func storedPNG(text: [(key: String, value: String)]) -> Data? {
        let bytes = withCStrings(text.map(\.key)) { keys in
            withCStrings(text.map(\.value)) { values in
                cshim_png_encode_stored(pixbuf, keys, values, gint(text.count))
            }
        }
        guard let bytes else { return nil }
        var size: gsize = 0
        guard let start = g_bytes_get_data(bytes, &size) else {
            g_bytes_unref(bytes)
            return nil
        }
        // The encoder's buffer itself, not a copy of it: it is released with the Data.
        return Data(
            bytesNoCopy: UnsafeMutableRawPointer(mutating: start), count: Int(size),
            deallocator: .custom { _, _ in g_bytes_unref(bytes) })
    }
}

extension Pixbuf {
    /// The pixels as they are laid out in memory, to hand them to another process.
    public struct Pixels: Sendable {
        public let width: Int
        public let height: Int
        /// Bytes from one row to the next.
        public let rowstride: Int
        /// RGBA when true, RGB when false, 8 bits a sample.
        public let hasAlpha: Bool
        public let bytes: Data

        public init(width: Int, height: Int, rowstride: Int, hasAlpha: Bool, bytes: Data) {
            self.width = width
            self.height = height
            self.rowstride = rowstride
            self.hasAlpha = hasAlpha
            self.bytes = bytes
        }

        /// Whether `bytes` hold every row as `rowstride` lays them out (the last one without padding).
        public var isConsistent: Bool {
            let sampleBytes = width * (hasAlpha ? 4 : 3)
            return width > 0 && height > 0 && rowstride >= sampleBytes
                && bytes.count == rowstride * (height - 1) + sampleBytes
        }
    }

    /// A copy of the pixels.
    public var pixels: Pixels {
        let length = Int(gdk_pixbuf_get_byte_length(pixbuf))
        return Pixels(
            width: width, height: height, rowstride: Int(gdk_pixbuf_get_rowstride(pixbuf)),
            hasAlpha: gdk_pixbuf_get_has_alpha(pixbuf) != 0,
            bytes: Data(bytes: gdk_pixbuf_read_pixels(pixbuf), count: length))
    }

    /// Runs `body` over the pixels where they lie, without a copy: rows `rowstride` bytes apart, RGBA when
    /// `hasAlpha`, else RGB.
    public func withPixelBytes<Result>(
        _ body: (_ bytes: Span<UInt8>, _ rowstride: Int, _ hasAlpha: Bool) -> Result
    ) -> Result {
        withExtendedLifetime(self) {
            let bytes = UnsafeBufferPointer(
                start: gdk_pixbuf_read_pixels(pixbuf), count: Int(gdk_pixbuf_get_byte_length(pixbuf)))
            return body(
                Span(_unsafeElements: bytes), Int(gdk_pixbuf_get_rowstride(pixbuf)),
                gdk_pixbuf_get_has_alpha(pixbuf) != 0)
        }
    }

    /// A pixbuf of these pixels (copied); nil when they are not consistent.
    public convenience init?(_ pixels: Pixels) {
        guard pixels.isConsistent else { return nil }
        let bytes = pixels.bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        guard
            let made = gdk_pixbuf_new_from_bytes(
                bytes, GDK_COLORSPACE_RGB, pixels.hasAlpha ? 1 : 0, 8, gint(pixels.width), gint(pixels.height),
                gint(pixels.rowstride))
        else { return nil }
        self.init(taking: made)
    }

    /// The pixels as a PNG file's bytes (what an image/png clipboard target carries); nil if encoding failed.
    public func pngData() -> [UInt8]? {
        var buffer: UnsafeMutablePointer<gchar>?
        var size: gsize = 0
        let saved = withCStrings(["compression"]) { keys in
            withCStrings(["6"]) { values in gdk_pixbuf_save_to_bufferv(pixbuf, &buffer, &size, "png", keys, values, nil)
            }
        }
        defer { g_free(buffer) }
        guard saved != 0, let buffer else { return nil }
        return buffer.withMemoryRebound(to: UInt8.self, capacity: Int(size)) {
            Array(UnsafeBufferPointer(start: $0, count: Int(size)))
        }
    }
}

/// Null-terminated C string arrays for GLib's `char **` parameters, alive during `body`.
private func withCStrings<R>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> R)
    -> R
{
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) } + [nil]
    defer { for pointer in pointers { free(pointer) } }
    return pointers.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
}
