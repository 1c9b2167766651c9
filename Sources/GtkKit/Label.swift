import CGtk

public final class Label: Widget {
    public init(_ text: String = "") {
        super.init(owning: gtk_label_new(text))
    }

    public var text: String {
        get { String(cString: gtk_label_get_text(typed())) }
        // The same text again would still measure the window's widgets anew.
        set { if newValue != text { gtk_label_set_text(typed(), newValue) } }
    }

    public func setWrap(_ wrap: Bool, maxWidthChars: Int32 = -1) {
        gtk_label_set_line_wrap(typed(), wrap ? 1 : 0)
        gtk_label_set_max_width_chars(typed(), maxWidthChars)
        gtk_label_set_justify(typed(), GTK_JUSTIFY_CENTER)
    }

    public func setXAlign(_ value: Float) { gtk_label_set_xalign(typed(), value) }

    /// Long text ends in "…" instead of widening its container.
    public func ellipsize() { gtk_label_set_ellipsize(typed(), PANGO_ELLIPSIZE_END) }
}
