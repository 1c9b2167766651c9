import CGtk
import CGtkShim
import GLibKit

/// A one-line text entry.
public final class Entry: Widget {
    public init() { super.init(owning: gtk_entry_new()) }

    /// A search entry: a magnifier at its start, a button that clears it at its end.
    public init(searching: Bool) { super.init(owning: searching ? gtk_search_entry_new() : gtk_entry_new()) }

    /// Puts the cursor after `offset` characters (-1: at the end), with nothing selected.
    public func setCursor(_ offset: Int) { gtk_editable_set_position(OpaquePointer(pointer), gint(offset)) }

    public var text: String {
        get { String(cString: gtk_entry_get_text(typed())) }
        set { gtk_entry_set_text(typed(), newValue) }
    }

    /// The dim text shown while the entry is empty.
    public var placeholderText: String {
        get { gtk_entry_get_placeholder_text(typed()).map { String(cString: $0) } ?? "" }
        set { gtk_entry_set_placeholder_text(typed(), newValue) }
    }

    public var widthChars: Int {
        get { Int(gtk_entry_get_width_chars(typed())) }
        set { gtk_entry_set_width_chars(typed(), gint(newValue)) }
    }

    /// What the completion popup offers as the user types (a prefix, in any case).
    public func setCompletions(_ names: [String]) {
        var pointers: [UnsafePointer<gchar>?] = names.map { UnsafePointer(strdup($0)) }
        defer { for pointer in pointers { free(UnsafeMutableRawPointer(mutating: pointer)) } }
        cshim_entry_set_completions(typed(), &pointers, gint(pointers.count))
    }

    public func selectAll() { gtk_editable_select_region(OpaquePointer(pointer), 0, -1) }

    /// The text changed (typed, pasted, deleted or set).
    public func onChanged(_ handler: @escaping VoidHandler) { on("changed", handler) }

    /// Enter was pressed.
    public func onActivate(_ handler: @escaping VoidHandler) { on("activate", handler) }

    /// The entry lost the keyboard focus.
    public func onFocusOut(_ handler: @escaping VoidHandler) {
        let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> gboolean = { _, _, userData in
            let box = CallbackBox<VoidHandler>.from(userData: userData)
            onMain { box.handler() }
            return 0
        }
        connect(pointer, "focus-out-event", trampoline: unsafeBitCast(trampoline, to: GCallback.self), handler: handler)
    }
}
