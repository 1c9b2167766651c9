import CCairo

/// An image surface, immutable once made, so it can be handed from a decoding thread to the GUI.
public final class CairoSurface: Sendable {
    private let handle: ReadOnlyPointer
    package var surface: OpaquePointer { handle.pointer }
    /// Size in layout points (pixels divided by the device scale).
    public let logicalWidth: Double
    public let logicalHeight: Double
    /// The radius (points) its corners were cut round with, transparent outside; 0 for square ones.
    public let cornerRadius: Double

    package init(taking surface: OpaquePointer, logicalWidth: Double, logicalHeight: Double, cornerRadius: Double = 0) {
        handle = ReadOnlyPointer(pointer: surface)
        self.logicalWidth = logicalWidth
        self.logicalHeight = logicalHeight
        self.cornerRadius = cornerRadius
    }

    deinit { cairo_surface_destroy(surface) }

    /// Bytes held in memory, for the cache's budget (image surfaces; 0 for others).
    public var byteCount: Int {
        Int(cairo_image_surface_get_stride(surface)) * Int(cairo_image_surface_get_height(surface))
    }

    public var pixelWidth: Int { Int(cairo_image_surface_get_width(surface)) }
    public var pixelHeight: Int { Int(cairo_image_surface_get_height(surface)) }
}

extension CairoSurface {
    /// Draws into a new image surface of `width`×`height` points at `scale` (drag images).
    public static func render(width: Double, height: Double, scale: Int, _ body: (CairoContext) -> Void) -> CairoSurface
    {
        let pixelWidth = Int32((width * Double(scale)).rounded(.up))
        let pixelHeight = Int32((height * Double(scale)).rounded(.up))
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, max(pixelWidth, 1), max(pixelHeight, 1))!
        let cr = cairo_create(surface)!
        cairo_scale(cr, Double(scale), Double(scale))
        body(CairoContext(cr: cr))
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        return CairoSurface(taking: surface, logicalWidth: width, logicalHeight: height)
    }
}

extension CairoSurface {
    /// A new ARGB32 image surface of `width`×`height` pixels for a device `scale` holding `source` scaled to fill it,
    /// each pixel the average of those it covers when smaller. Any thread may make one: it touches no display.
    package static func copy(of source: OpaquePointer, width: Int, height: Int, scale: Int) -> CairoSurface? {
        let width = max(width, 1)
        let height = max(height, 1)
        let scale = max(scale, 1)
        let sourceWidth = Int(cairo_image_surface_get_width(source))
        let sourceHeight = Int(cairo_image_surface_get_height(source))
        guard sourceWidth > 0, sourceHeight > 0,
            let made = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)),
            cairo_surface_status(made) == CAIRO_STATUS_SUCCESS
        else { return nil }
        let cr = cairo_create(made)!
        cairo_scale(cr, Double(width) / Double(sourceWidth), Double(height) / Double(sourceHeight))
        cairo_set_source_surface(cr, source, 0, 0)
        let sameSize = (width, height) == (sourceWidth, sourceHeight)
        cairo_pattern_set_filter(cairo_get_source(cr), sameSize ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_GOOD)
        cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_paint(cr)
        cairo_destroy(cr)
        cairo_surface_flush(made)
        cairo_surface_set_device_scale(made, Double(scale), Double(scale))
        return CairoSurface(
            taking: made, logicalWidth: Double(width) / Double(scale), logicalHeight: Double(height) / Double(scale))
    }
}
