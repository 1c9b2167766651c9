import CCairo

/// A canvas an animation's frames are composed on, one rectangle after another, at the size they show (an APNG's
/// frames are decoded that small, whatever its own size). Sendable only to be handed over: its owner's lock lets one
/// thread at a time use it.
public final class FrameCanvas: @unchecked Sendable {
    private let surface: OpaquePointer
    public let width: Int
    public let height: Int

    /// A transparent canvas of `width`×`height` pixels; nil when cairo cannot make one.
    public init?(width: Int, height: Int) {
        guard width > 0, height > 0,
            let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)),
            cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
        else { return nil }
        self.surface = surface
        self.width = width
        self.height = height
    }

    deinit { cairo_surface_destroy(surface) }

    private func withContext(_ body: (OpaquePointer) -> Void) {
        let cr = cairo_create(surface)!
        body(cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
    }

    /// The rectangle, or the whole canvas, transparent again.
    public func clear(x: Int = 0, y: Int = 0, width: Int? = nil, height: Int? = nil) {
        withContext { cr in
            cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
            cairo_rectangle(cr, Double(x), Double(y), Double(width ?? self.width), Double(height ?? self.height))
            cairo_fill(cr)
        }
    }

    /// `pixbuf` scaled into the rectangle: over what is there, or `replacing` it, transparent pixels included.
    public func draw(_ pixbuf: Pixbuf, x: Int, y: Int, width: Int, height: Int, replacing: Bool) {
        let picture = pixbuf.surface(scale: 1)
        withContext { cr in
            cairo_rectangle(cr, Double(x), Double(y), Double(width), Double(height))
            cairo_clip(cr)
            cairo_translate(cr, Double(x), Double(y))
            cairo_scale(
                cr, Double(width) / Double(max(pixbuf.width, 1)), Double(height) / Double(max(pixbuf.height, 1)))
            cairo_set_source_surface(cr, picture.surface, 0, 0)
            cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
            cairo_set_operator(cr, replacing ? CAIRO_OPERATOR_SOURCE : CAIRO_OPERATOR_OVER)
            cairo_paint(cr)
        }
    }

    /// A copy of the whole canvas, to go back to (`restore`).
    public func copy() -> FrameCanvas? {
        guard let copy = FrameCanvas(width: width, height: height) else { return nil }
        copy.restore(self)
        return copy
    }

    /// Every pixel as `other` has it.
    public func restore(_ other: FrameCanvas) {
        withContext { cr in
            cairo_set_source_surface(cr, other.surface, 0, 0)
            cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
            cairo_paint(cr)
        }
    }

    /// The canvas as it is now at `width`×`height` pixels for a device `scale`, in a surface of its own.
    public func snapshot(width: Int, height: Int, scale: Int) -> CairoSurface? {
        CairoSurface.copy(of: surface, width: width, height: height, scale: scale)
    }
}
