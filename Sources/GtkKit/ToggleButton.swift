import CGtk
import GLibKit

/// A button that stays pressed, bound to a stateful boolean action.
public final class ToggleButton: Widget {
    public init(iconName: String, tooltip: String) {
        super.init(owning: gtk_toggle_button_new())
        gtk_button_set_image(typed(), gtk_image_new_from_icon_name(iconName, GTK_ICON_SIZE_BUTTON))
        self.tooltip = tooltip
        accessibleName = tooltip
    }

    public init(label: String, tooltip: String) {
        super.init(owning: gtk_toggle_button_new_with_mnemonic(label))
        self.tooltip = tooltip
    }

    /// A toggle button showing `content` (a picture with its caption).
    public init(content: Widget) {
        super.init(owning: gtk_toggle_button_new())
        gtk_container_add(typed(), content.widget)
    }

    public var isActive: Bool {
        get { gtk_toggle_button_get_active(typed()) != 0 }
        set { gtk_toggle_button_set_active(typed(), newValue ? 1 : 0) }
    }

    /// Pressed or released, by the user or by `isActive`.
    public func onToggled(_ handler: @escaping VoidHandler) { on("toggled", handler) }

    public func setAction(_ detailedName: String) {
        gtk_actionable_set_detailed_action_name(OpaquePointer(pointer), detailedName)
    }
}
