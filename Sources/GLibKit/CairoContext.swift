import CCairo

/// A cairo context borrowed for the length of a draw callback (on the GTK thread only).
public struct CairoContext {
    package let cr: OpaquePointer

    package init(cr: OpaquePointer) { self.cr = cr }

    public func save() { cairo_save(cr) }
    public func restore() { cairo_restore(cr) }
    public func translate(x: Double, y: Double) { cairo_translate(cr, x, y) }
    public func scale(_ sx: Double, _ sy: Double) { cairo_scale(cr, sx, sy) }

    public func setColor(_ color: RGBA) { cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha) }

    public func rectangle(x: Double, y: Double, width: Double, height: Double) {
        cairo_rectangle(cr, x, y, width, height)
    }

    public func roundedRectangle(x: Double, y: Double, width: Double, height: Double, radius: Double) {
        let r = min(radius, width / 2, height / 2)
        cairo_new_sub_path(cr)
        cairo_arc(cr, x + width - r, y + r, r, -Double.pi / 2, 0)
        cairo_arc(cr, x + width - r, y + height - r, r, 0, Double.pi / 2)
        cairo_arc(cr, x + r, y + height - r, r, Double.pi / 2, Double.pi)
        cairo_arc(cr, x + r, y + r, r, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(cr)
    }

    public func arc(x: Double, y: Double, radius: Double, from start: Double, to end: Double) {
        cairo_new_sub_path(cr)
        cairo_arc(cr, x, y, radius, start, end)
    }

    public func moveTo(x: Double, y: Double) { cairo_move_to(cr, x, y) }
    public func lineTo(x: Double, y: Double) { cairo_line_to(cr, x, y) }
    public func fill() { cairo_fill(cr) }
    public func fillPreserve() { cairo_fill_preserve(cr) }
    public func stroke() { cairo_stroke(cr) }
    public func clip() { cairo_clip(cr) }
    public func paint(alpha: Double = 1) { alpha >= 1 ? cairo_paint(cr) : cairo_paint_with_alpha(cr, alpha) }
    public func setLineWidth(_ width: Double) { cairo_set_line_width(cr, width) }
    public func setRoundCaps() { cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND) }

    /// The area that needs redrawing, in user coordinates.
    public var clipExtents: (x: Double, y: Double, width: Double, height: Double) {
        var x1 = 0.0
        var y1 = 0.0
        var x2 = 0.0
        var y2 = 0.0
        cairo_clip_extents(cr, &x1, &y1, &x2, &y2)
        return (x1, y1, x2 - x1, y2 - y1)
    }

    /// The rectangles that need redrawing, in user coordinates (a frame that repaints a few
    /// spinners damages a few small rectangles, whose extents may span the window); nil when the
    /// clip is not a set of rectangles.
    public var clipRectangles: [(x: Double, y: Double, width: Double, height: Double)]? {
        guard let list = cairo_copy_clip_rectangle_list(cr) else { return nil }
        defer { cairo_rectangle_list_destroy(list) }
        guard list.pointee.status == CAIRO_STATUS_SUCCESS else { return nil }
        return (0..<Int(list.pointee.num_rectangles)).map { index in
            let rectangle = list.pointee.rectangles[index]
            return (rectangle.x, rectangle.y, rectangle.width, rectangle.height)
        }
    }

    /// Draws into a new surface like the one this context paints on (on X11 a pixmap in the server,
    /// at the same device scale), `width`×`height` points: painted many times, its pixels are not
    /// sent again each time, as an image surface's are. `alphaOnly` for a mask.
    public func renderSimilar(
        width: Double, height: Double, alphaOnly: Bool = false,
        _ body: (CairoContext) -> Void
    ) -> CairoSurface {
        let surface = cairo_surface_create_similar(
            cairo_get_target(cr), alphaOnly ? CAIRO_CONTENT_ALPHA : CAIRO_CONTENT_COLOR_ALPHA,
            Int32(width.rounded(.up)), Int32(height.rounded(.up)))!
        let similar = cairo_create(surface)!
        body(CairoContext(cr: similar))
        cairo_destroy(similar)
        return CairoSurface(taking: surface, logicalWidth: width, logicalHeight: height)
    }

    /// Fills a rounded rectangle with the current source, its edges on whole pixels, from straight
    /// rectangles and a disc's quarters (`corners`): no curved path. On X11 a curved fill or clip is
    /// cut into trapezoids the X server rasterizes at every paint; a frame of a hundred placeholders
    /// sliding into place kept it busy enough that the window waited to send its next frame.
    @MainActor
    public func fillRoundedRectangle(
        x: Double, y: Double, width: Double, height: Double, radius: Double,
        corners: RoundedCorners
    ) {
        let (left, top, right, bottom) = deviceEdges(x: x, y: y, width: width, height: height)
        let pixelsPerUnit = self.pixelsPerUnit
        var radiusX = radius
        var radiusY = 0.0
        cairo_user_to_device_distance(cr, &radiusX, &radiusY)
        // Whole pixels from here on, in device units (a pixel is 1/pixelsPerUnit of one).
        func pixels(_ units: Double) -> Double { (units * pixelsPerUnit).rounded() }
        let l = pixels(left)
        let t = pixels(top)
        let r = pixels(right)
        let b = pixels(bottom)
        guard r > l, b > t else { return }
        let corner = min(pixels(radiusX), ((r - l) / 2).rounded(.down), ((b - t) / 2).rounded(.down))
        let unit = 1 / pixelsPerUnit
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_rectangle(cr, (l + corner) * unit, t * unit, (r - l - 2 * corner) * unit, (b - t) * unit)
        if b - t > 2 * corner, corner > 0 {
            cairo_rectangle(cr, l * unit, (t + corner) * unit, corner * unit, (b - t - 2 * corner) * unit)
            cairo_rectangle(cr, (r - corner) * unit, (t + corner) * unit, corner * unit, (b - t - 2 * corner) * unit)
        }
        cairo_fill(cr)
        if corner > 0 {
            let disc = corners.disc(pixels: Int(corner), pixelsPerUnit: pixelsPerUnit, like: self)
            // Each corner square is masked by the quarter of the disc that falls in it.
            for (cornerX, cornerY, discX, discY) in [
                (l, t, l, t), (r - corner, t, r - 2 * corner, t),
                (l, b - corner, l, b - 2 * corner),
                (r - corner, b - corner, r - 2 * corner, b - 2 * corner),
            ] {
                cairo_save(cr)
                cairo_rectangle(cr, cornerX * unit, cornerY * unit, corner * unit, corner * unit)
                cairo_clip(cr)
                cairo_mask_surface(cr, disc.surface, discX * unit, discY * unit)
                cairo_restore(cr)
            }
        }
        cairo_restore(cr)
    }

    /// Pixels per device unit: the transformation stops at "device units", and on a HiDPI screen
    /// the target surface's own device scale (the same across and down) turns each into several.
    private var pixelsPerUnit: Double {
        var across = 1.0
        var down = 1.0
        cairo_surface_get_device_scale(cairo_get_target(cr), &across, &down)
        return across
    }

    /// Paints `surface` at its own size, its top left corner at (`x`, `y`).
    public func paint(_ surface: CairoSurface, x: Double, y: Double) {
        cairo_set_source_surface(cr, surface.surface, x, y)
        cairo_paint(cr)
    }

    /// How a picture painted at another size than its own is resampled.
    public enum Resampling: Sendable {
        /// Cairo's "good" filter: a convolution that stays sharp when shrinking a lot. On X11 the
        /// server has no such filter, so cairo reads the target back, resamples on this thread
        /// and uploads the result, for each paint.
        case best
        /// Bilinear, which the X server does itself (RENDER): for pictures in motion or on their way
        /// to a decode at their exact size, where the painting thread must not spend a frame on it.
        case fast

        fileprivate var filter: cairo_filter_t {
            switch self {
            case .best: CAIRO_FILTER_GOOD
            case .fast: CAIRO_FILTER_BILINEAR
            }
        }
    }

    /// Paints `surface` scaled into the rectangle.
    public func draw(
        _ surface: CairoSurface, x: Double, y: Double, width: Double, height: Double, alpha: Double = 1,
        resampling: Resampling = .best
    ) {
        guard surface.logicalWidth > 0, surface.logicalHeight > 0 else { return }
        if drawPixelAligned(surface, x: x, y: y, width: width, height: height, alpha: alpha) { return }
        cairo_save(cr)
        setSource(surface, x: x, y: y, width: width, height: height, resampling: resampling)
        cairo_rectangle(cr, x, y, width, height)
        cairo_clip(cr)
        alpha >= 1 ? cairo_paint(cr) : cairo_paint_with_alpha(cr, alpha)
        cairo_restore(cr)
    }

    /// Makes `surface`, scaled into the rectangle, what the next fill paints with.
    public func setSource(
        _ surface: CairoSurface, x: Double, y: Double, width: Double, height: Double,
        resampling: Resampling
    ) {
        let scaleX = width / max(surface.logicalWidth, 0.001)
        let scaleY = height / max(surface.logicalHeight, 0.001)
        let pattern = cairo_pattern_create_for_surface(surface.surface)!
        var toSurface = cairo_matrix_t()
        cairo_matrix_init_scale(&toSurface, 1 / max(scaleX, 0.001), 1 / max(scaleY, 0.001))
        cairo_matrix_translate(&toSurface, -x, -y)
        cairo_pattern_set_matrix(pattern, &toSurface)
        // Edge pixels repeat outward instead of fading into transparency (a 1×1 image would paint as
        // a blurred dot); a small image blown up shows its pixels, as image viewers do.
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
        let magnification = min(scaleX, scaleY) * surface.logicalWidth / Double(max(surface.pixelWidth, 1))
        cairo_pattern_set_filter(pattern, magnification >= 4 ? CAIRO_FILTER_NEAREST : resampling.filter)
        cairo_set_source(cr, pattern)
        cairo_pattern_destroy(pattern)
    }

    /// The rectangle's edges in device units (left, top, right, bottom).
    private func deviceEdges(x: Double, y: Double, width: Double, height: Double) -> (
        Double, Double, Double, Double
    ) {
        var left = x
        var top = y
        var right = x + width
        var bottom = y + height
        cairo_user_to_device(cr, &left, &top)
        cairo_user_to_device(cr, &right, &bottom)
        return (left, top, right, bottom)
    }

    /// A surface decoded at the rectangle's size in device pixels (give or take the rounding of a
    /// fractional layout) is painted one surface pixel onto one screen pixel: resampling it for a
    /// sub-pixel offset or a 0.5% scale would blur every edge of the picture. It fills its own
    /// whole-pixel rectangle, with no clip (a fractional clip becomes a mask on X11).
    private func drawPixelAligned(
        _ surface: CairoSurface, x: Double, y: Double, width: Double, height: Double,
        alpha: Double
    ) -> Bool {
        let (left, top, right, bottom) = deviceEdges(x: x, y: y, width: width, height: height)
        let pixelsPerUnit = self.pixelsPerUnit
        let pixelWidth = (right - left) * pixelsPerUnit
        let pixelHeight = (bottom - top) * pixelsPerUnit
        guard abs(pixelWidth - Double(surface.pixelWidth)) <= 1.5, abs(pixelHeight - Double(surface.pixelHeight)) <= 1.5
        else { return false }
        var originX = (left * pixelsPerUnit + (pixelWidth - Double(surface.pixelWidth)) / 2).rounded() / pixelsPerUnit
        var originY = (top * pixelsPerUnit + (pixelHeight - Double(surface.pixelHeight)) / 2).rounded() / pixelsPerUnit
        cairo_device_to_user(cr, &originX, &originY)
        cairo_save(cr)
        cairo_set_source_surface(cr, surface.surface, originX, originY)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST)
        cairo_rectangle(cr, originX, originY, surface.logicalWidth, surface.logicalHeight)
        cairo_clip(cr)
        alpha >= 1 ? cairo_paint(cr) : cairo_paint_with_alpha(cr, alpha)
        cairo_restore(cr)
        return true
    }
}

/// Borrowed for the length of a draw callback, on the GTK thread.
@available(*, unavailable)
extension CairoContext: Sendable {}
