import CGtk
import GLibKit

/// A bar that slides down under the header bar while searching, holding a search entry and what goes with it.
public final class SearchBar: Container {
    public init() { super.init(owning: gtk_search_bar_new()) }

    /// The entry whose text is the search: Esc in it closes the bar.
    public func connect(_ entry: Entry) { gtk_search_bar_connect_entry(typed(), entry.typed()) }

    /// Whether the bar shows.
    public var isSearching: Bool {
        get { gtk_search_bar_get_search_mode(typed()) != 0 }
        set { gtk_search_bar_set_search_mode(typed(), newValue ? 1 : 0) }
    }

    /// The bar opened or closed (by Esc in the entry too).
    public func onSearchingChanged(_ handler: @escaping VoidHandler) {
        // "notify" passes the property's spec before the user data.
        let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, _, userData in
            let box = CallbackBox<VoidHandler>.from(userData: userData)
            onMain { box.handler() }
        }
        GLibKit.connect(
            pointer, "notify::search-mode-enabled", trampoline: unsafeBitCast(trampoline, to: GCallback.self),
            handler: handler)
    }
}
