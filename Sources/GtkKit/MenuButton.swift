import CGtk
import GLibKit

/// A header-bar button that opens a menu.
public final class MenuButton: Widget {
    @MainActor public init(iconName: String, tooltip: String, menu builder: Builder, menuID: String) {
        super.init(owning: gtk_menu_button_new())
        gtk_button_set_image(typed(), gtk_image_new_from_icon_name(iconName, GTK_ICON_SIZE_BUTTON))
        if let model = builder.object(menuID) {
            gtk_menu_button_set_menu_model(typed(), model.assumingMemoryBound(to: GMenuModel.self))
        }
        self.tooltip = tooltip
        accessibleName = tooltip
    }
}
