import CGtk

/// A widget with its own input window that the app paints itself (the image viewer).
public final class DrawingArea: Widget {
    public init() { super.init(owning: gtk_drawing_area_new()) }
}
