import CGtk

/// A list of targets, built once and handed to GTK for drag sources and destinations.
public final class TargetList {
    let list: OpaquePointer

    /// `sameApp` targets are offered only inside this application (GTK_TARGET_SAME_APP).
    public init(_ targets: [(name: String, sameApp: Bool)]) {
        list = gtk_target_list_new(nil, 0)
        for (info, target) in targets.enumerated() {
            gtk_target_list_add(
                list, gdk_atom_intern(target.name, 0),
                target.sameApp ? guint(GTK_TARGET_SAME_APP.rawValue) : 0, guint(info))
        }
    }

    deinit { gtk_target_list_unref(list) }
}
