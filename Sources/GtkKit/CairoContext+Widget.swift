import CGtk
import GLibKit

/// Text in a widget's font and icons from its theme.
extension CairoContext {
    /// Draws text with Pango, centred in a box, in the widget's font.
    public func drawText(
        _ text: String, widget: Widget, centerX: Double, centerY: Double, maxWidth: Double,
        color: RGBA, scale: Double = 1
    ) {
        drawText(text, widget: widget, centerX: centerX, maxWidth: maxWidth, color: color, scale: scale, lines: 1) {
            height in
            centerY - height / 2
        }
    }

    /// Draws text from `top` down, centred across `maxWidth`, wrapped onto at most `lines` lines
    /// (the last one ellipsized); returns the height it took.
    @discardableResult
    public func drawText(
        _ text: String, widget: Widget, centerX: Double, top: Double, maxWidth: Double, color: RGBA,
        scale: Double = 1, lines: Int
    ) -> Double {
        drawText(text, widget: widget, centerX: centerX, maxWidth: maxWidth, color: color, scale: scale, lines: lines) {
            _ in top
        }
    }

    @discardableResult
    private func drawText(
        _ text: String, widget: Widget, centerX: Double, maxWidth: Double, color: RGBA, scale: Double,
        lines: Int, top: (_ height: Double) -> Double
    ) -> Double {
        let layout = gtk_widget_create_pango_layout(widget.widget, text)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        pango_layout_set_width(layout, gint(maxWidth / scale * Double(PANGO_SCALE)))
        pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
        pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        if lines > 1 {
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
            pango_layout_set_height(layout, gint(-lines))
        }
        var width: gint = 0
        var height: gint = 0
        pango_layout_get_pixel_size(layout, &width, &height)
        let drawnHeight = Double(height) * scale
        cairo_save(cr)
        cairo_translate(cr, centerX - maxWidth / 2, top(drawnHeight))
        cairo_scale(cr, scale, scale)
        setColor(color)
        cairo_move_to(cr, 0, 0)
        pango_cairo_show_layout(cr, layout)
        cairo_restore(cr)
        return drawnHeight
    }

    /// Draws one line of bold text from `left`, vertically centred on `centerY`, ellipsized past `maxWidth`
    /// (a heading among the cells).
    public func drawText(
        _ text: String, widget: Widget, left: Double, centerY: Double, maxWidth: Double, color: RGBA
    ) {
        let layout = gtk_widget_create_pango_layout(widget.widget, nil)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        let escaped = g_markup_escape_text(text, -1)
        defer { g_free(escaped) }
        pango_layout_set_markup(layout, "<b>\(escaped.map { String(cString: $0) } ?? "")</b>", -1)
        pango_layout_set_width(layout, gint(maxWidth * Double(PANGO_SCALE)))
        pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
        pango_layout_set_auto_dir(layout, 1)
        var width: gint = 0
        var height: gint = 0
        pango_layout_get_pixel_size(layout, &width, &height)
        cairo_save(cr)
        setColor(color)
        cairo_move_to(cr, left, centerY - Double(height) / 2)
        pango_cairo_show_layout(cr, layout)
        cairo_restore(cr)
    }

    /// Draws a themed icon centred at a point.
    public func drawIcon(named name: String, widget: Widget, centerX: Double, centerY: Double, size: Int, color: RGBA) {
        let theme = gtk_icon_theme_get_default()
        let scale = gint(widget.scaleFactor)
        guard
            let info = gtk_icon_theme_lookup_icon_for_scale(
                theme, name, gint(size), scale,
                GTK_ICON_LOOKUP_FORCE_SYMBOLIC)
        else { return }
        defer { g_object_unref(UnsafeMutableRawPointer(info)) }
        var gdkColor = GdkRGBA(red: color.red, green: color.green, blue: color.blue, alpha: color.alpha)
        guard let pixbuf = gtk_icon_info_load_symbolic(info, &gdkColor, nil, nil, nil, nil, nil) else { return }
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        cairo_save(cr)
        cairo_translate(cr, centerX - Double(size) / 2, centerY - Double(size) / 2)
        cairo_scale(cr, 1 / Double(scale), 1 / Double(scale))
        gdk_cairo_set_source_pixbuf(cr, pixbuf, 0, 0)
        cairo_paint(cr)
        cairo_restore(cr)
    }
}
