import CGtk
import GLibKit

public final class Box: Container {
    public init(_ orientation: Orientation, spacing: Int32 = 0) {
        super.init(owning: gtk_box_new(orientation.gtk, spacing))
    }

    public func append(_ child: Widget, expand: Bool = false) {
        gtk_box_pack_start(typed(), child.widget, expand ? 1 : 0, expand ? 1 : 0, 0)
    }
}
