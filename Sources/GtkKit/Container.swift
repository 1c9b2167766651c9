import CGtk
import GLibKit

open class Container: Widget {
    public func add(_ child: Widget) { gtk_container_add(typed(), child.widget) }
    public func remove(_ child: Widget) { gtk_container_remove(typed(), child.widget) }
}
