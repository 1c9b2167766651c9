import CGtk
import GLibKit

public final class Button: Widget {
    public init(label: String) {
        super.init(owning: gtk_button_new_with_mnemonic(label))
    }

    /// A button showing `text` as it is (a user's tag or gallery name: an underscore is no mnemonic).
    public init(text: String) {
        super.init(owning: gtk_button_new_with_label(text))
    }

    public init(iconName: String, tooltip: String) {
        super.init(owning: gtk_button_new_from_icon_name(iconName, GTK_ICON_SIZE_BUTTON))
        self.tooltip = tooltip
        accessibleName = tooltip
    }

    /// A button showing `child` (a swatch and its caption).
    public init(child: Widget) {
        super.init(owning: gtk_button_new())
        gtk_container_add(typed(), child.widget)
    }

    public var label: String {
        get { gtk_button_get_label(typed()).map { String(cString: $0) } ?? "" }
        set { gtk_button_set_label(typed(), newValue) }
    }

    /// Binds the button to a window or application action (`win.undo`).
    public func setAction(_ detailedName: String) {
        gtk_actionable_set_detailed_action_name(OpaquePointer(pointer), detailedName)
    }

    public func onClicked(_ handler: @escaping VoidHandler) { on("clicked", handler) }
}
