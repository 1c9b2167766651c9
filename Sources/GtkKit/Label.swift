import CGtk
import GLibKit

public final class Label: Widget {
    public init(_ text: String = "") {
        super.init(owning: gtk_label_new(text))
    }

    /// A label whose underlined letter (`_Note`) focuses its mnemonic widget with Alt.
    public init(mnemonic: String) {
        super.init(owning: gtk_label_new_with_mnemonic(mnemonic))
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

    /// Text of any length on as many left-aligned lines as it needs, broken between words, or
    /// inside one too long for a line (an address); the user can select and copy it.
    public func wrapSelectableText() {
        gtk_label_set_line_wrap(typed(), 1)
        gtk_label_set_line_wrap_mode(typed(), PANGO_WRAP_WORD_CHAR)
        gtk_label_set_xalign(typed(), 0)
        gtk_label_set_selectable(typed(), 1)
    }

    /// The widget the label names: its mnemonic focuses it, and assistive technologies read the
    /// label as its name.
    public func setMnemonicWidget(_ widget: Widget) { gtk_label_set_mnemonic_widget(typed(), widget.widget) }

    /// Long text ends in "…" instead of widening its container.
    public func ellipsize() { gtk_label_set_ellipsize(typed(), PANGO_ELLIPSIZE_END) }
}
