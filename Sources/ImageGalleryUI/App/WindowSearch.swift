import Foundation
import GalleryCore
import GalleryIO
import GtkKit

/// A window's search: the bar under the header bar (Ctrl+F, or typing in the gallery), and its query run on a
/// worker at each keystroke. The latest query wins: an older one still running is cancelled and its results,
/// if they come, are dropped; the window shows results as they arrive and never waits for them.
@MainActor
final class WindowSearch {
    let bar = SearchBar()
    let entry = Entry(searching: true)
    /// Searches the shown gallery alone instead of every gallery.
    private let scopeButton = ToggleButton(
        label: tr("_This Gallery Only"), tooltip: tr("Search only the shown gallery"))
    private let session: GallerySession
    private let librarySearch: LibrarySearch
    private var running: CancellationToken?
    /// The results shown, which a longer query of the same index searches instead of everything.
    private var shown: SearchResults?
    private var rerunQueued = false
    private var observation: Observation?

    /// The bar closed: the window gives the gallery the keyboard back.
    var onClosed: () -> Void = {}

    init(session: GallerySession, search: LibrarySearch) {
        self.session = session
        librarySearch = search
        entry.placeholderText = tr("Search all galleries")
        entry.accessibleName = tr("Search")
        entry.widthChars = 36
        let content = Box(.horizontal, spacing: 6)
        content.append(entry)
        content.append(scopeButton)
        bar.add(content)
        bar.connect(entry)
        entry.onChanged { [weak self] in self?.queryChanged() }
        scopeButton.onToggled { [weak self] in
            guard let self else { return }
            entry.placeholderText = scopeButton.isActive ? tr("Search this gallery") : tr("Search all galleries")
            queryChanged()
        }
        bar.onSearchingChanged { [weak self] in
            guard let self, !bar.isSearching else { return }
            stop()
            onClosed()
        }
        // Each change of the library changes the results: they are asked again once the index has taken it up.
        observation = session.library.observe { [weak self] change in
            switch change {
            case .cells, .galleries: self?.queueRerun()
            case .progress, .placeholdersDiscarded, .history: break
            }
        }
    }

    var isOpen: Bool { bar.isSearching }

    /// Opens the bar with the keyboard in it; `typed` is what the user began to type in the gallery.
    func open(typing typed: String? = nil) {
        bar.isSearching = true
        if let typed {
            entry.text += typed
        } else {
            entry.selectAll()
        }
        entry.grabFocus()
        if typed != nil { entry.setCursor(-1) }
    }

    /// Esc: the bar closes and the gallery shows as it was.
    func close() {
        bar.isSearching = false
    }

    /// The shown gallery changed (a sidebar row was chosen): its images show, not results.
    func galleryShown() {
        if isOpen { close() }
    }

    func detach() {
        observation = nil
        running?.cancel()
    }

    private var query: SearchQuery {
        SearchQuery(text: entry.text, galleryID: scopeButton.isActive ? session.galleryID : nil)
    }

    private func queryChanged() {
        guard isOpen else { return }
        run(narrowing: shown)
    }

    private func run(narrowing previous: SearchResults?) {
        running?.cancel()
        running = nil
        let query = query
        guard !query.isEmpty else {
            shown = nil
            session.showResults(nil)
            return
        }
        let token = CancellationToken()
        running = token
        librarySearch.search(query, narrowing: previous, cancellation: token) { [weak self] results in
            guard let self, running === token else { return }
            running = nil
            shown = results
            session.showResults(results)
        }
    }

    private func queueRerun() {
        guard isOpen, shown != nil || running != nil, !rerunQueued else { return }
        rerunQueued = true
        // After every observer of this change: the index takes it up in its own.
        MainContext.post { [weak self] in
            guard let self else { return }
            rerunQueued = false
            if isOpen { run(narrowing: nil) }
        }
    }

    private func stop() {
        running?.cancel()
        running = nil
        shown = nil
        // The next search starts afresh, as in Files.
        entry.text = ""
        session.showResults(nil)
    }
}
