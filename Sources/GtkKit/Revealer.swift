import CGtk
import GLibKit

public final class Revealer: Container {
    /// `slidesDown`: the child slides in from the top edge (a banner) rather than the bottom (a toast).
    public init(transitionMilliseconds: UInt32 = 200, slidesDown: Bool = false) {
        super.init(owning: gtk_revealer_new())
        gtk_revealer_set_transition_type(
            typed(), slidesDown ? GTK_REVEALER_TRANSITION_TYPE_SLIDE_DOWN : GTK_REVEALER_TRANSITION_TYPE_SLIDE_UP)
        gtk_revealer_set_transition_duration(typed(), transitionMilliseconds)
    }

    public var revealed: Bool {
        get { gtk_revealer_get_reveal_child(typed()) != 0 }
        set { gtk_revealer_set_reveal_child(typed(), newValue ? 1 : 0) }
    }
}
