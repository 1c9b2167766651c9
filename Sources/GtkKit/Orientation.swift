import CGtk

public enum Orientation {
    case horizontal, vertical
    var gtk: GtkOrientation { self == .horizontal ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL }
}
