import CGtk
import GLibKit

/// Shows one of its named children at a time, without a transition.
public final class Stack: Container {
    public init() { super.init(owning: gtk_stack_new()) }

    public func addNamed(_ child: Widget, _ name: String) { gtk_stack_add_named(typed(), child.widget, name) }

    public var visibleChildName: String? {
        get { gtk_stack_get_visible_child_name(typed()).map { String(cString: $0) } }
        set { if let newValue { gtk_stack_set_visible_child_name(typed(), newValue) } }
    }
}
