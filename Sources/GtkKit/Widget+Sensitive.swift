import CGtk

extension Widget {
    /// Whether it answers to input: an action with nothing to act on is shown but greyed out.
    public var isSensitive: Bool {
        get { gtk_widget_get_sensitive(widget) != 0 }
        set { gtk_widget_set_sensitive(widget, newValue ? 1 : 0) }
    }
}
