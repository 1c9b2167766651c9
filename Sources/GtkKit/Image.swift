import CGtk
import GLibKit

public final class Image: Widget {
    public init(iconName: String, pixelSize: Int32) {
        super.init(owning: gtk_image_new_from_icon_name(iconName, GTK_ICON_SIZE_BUTTON))
        gtk_image_set_pixel_size(typed(), pixelSize)
    }
}
