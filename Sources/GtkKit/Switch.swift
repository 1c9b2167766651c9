import CGtk
import GLibKit

/// An on/off switch, as GNOME sets preferences.
public final class Switch: Widget {
    public init() { super.init(owning: gtk_switch_new()) }

    public var isActive: Bool {
        get { gtk_switch_get_active(typed()) != 0 }
        set { gtk_switch_set_active(typed(), newValue ? 1 : 0) }
    }

    /// Turned on or off, by the user or by `isActive`.
    public func onToggled(_ handler: @escaping VoidHandler) {
        // "notify" passes the property's spec before the user data.
        let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, _, userData in
            let box = CallbackBox<VoidHandler>.from(userData: userData)
            onMain { box.handler() }
        }
        GLibKit.connect(
            pointer, "notify::active", trampoline: unsafeBitCast(trampoline, to: GCallback.self), handler: handler)
    }
}
