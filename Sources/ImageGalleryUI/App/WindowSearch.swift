import Foundation
import GLibKit
import GalleryCore
import GalleryIO
import GtkKit

/// A window's search: the bar under the header bar (Ctrl+F, or typing in the gallery) with its filter chips, and
/// its query run on a worker at each keystroke, or at once on this thread when a key narrows results small enough
/// (`SearchCorpus.refine`) or its first results are found quickly (`SearchCorpus.searchWithinBudget`). A key's search
/// stops at the first `firstResults` images, which fill more than a screen, and the rest are found once typing pauses.
/// The latest query wins: an older one still running is cancelled and its results, if they come, are dropped; the
/// window shows results as they arrive and never waits for them.
@MainActor
final class WindowSearch {
    let bar = SearchBar()
    /// The header bar's magnifier: pressed while the bar shows, and pressing it opens or closes the bar.
    let button = ToggleButton(iconName: "system-search-symbolic", tooltip: tr("Search (Ctrl+F)"))
    let entry = Entry(searching: true)
    /// Searches the shown gallery alone instead of every gallery.
    private let scopeButton = ToggleButton(
        label: tr("_This Gallery Only"), tooltip: tr("Search only the shown gallery"))
    private let filterButton = Button(iconName: "list-add-symbolic", tooltip: tr("Add a Filter"))
    private let saveButton = Button(label: tr("_Save Search"))
    private let chips = SearchChips()
    private var filterMenu: Popover?
    private var colourChooser: ColorChooserDialog?
    private let session: GallerySession
    private var library: GalleryLibrary { session.library }
    private let librarySearch: LibrarySearch
    /// The images that could not be loaded, for the "Failed to Load" filter (the loader knows them, not the library).
    private let failedImages: () -> Set<ImageID>
    private var filters: [SearchFilter] = []
    private var running: CancellationToken?
    /// The results shown, which a longer query of the same index searches instead of everything.
    private var shown: SearchResults?
    private var rerunQueued = false
    /// The pause in typing after which results that stopped at `firstResults` are completed.
    private var completionTimer: UInt32 = 0
    /// How many images a key's search finds before its results are shown: more than the largest screen holds at the
    /// smallest zoom, so that each key reads a bounded part of a large library.
    static let firstResults = 1_000
    /// How long typing pauses before the rest of the results are looked for, in milliseconds.
    static let completionDelay: UInt32 = 300
    private var observation: Observation?
    /// The tags in use, folded, for the offers under the entry; read again (on a worker) when the library changes.
    private var tagNames: [(name: String, folded: String)]?
    /// Counts the library's changes: tag names read before the latest are read again.
    private var tagNamesAsked: Int?
    private var libraryChanges = 0
    /// The image whose look-alikes show (More Like This), until words or a filter are searched instead.
    private var lookAlikesOf: ImageID?
    /// Says whose look-alikes show.
    private let heading = Label()

    /// The bar closed: the window gives the gallery the keyboard back.
    var onClosed: () -> Void = {}
    /// The search was kept as the smart gallery of this id.
    var onSaved: (String) -> Void = { _ in }

    init(
        window: ApplicationWindow, handlers: ActionHandlers, session: GallerySession, search: LibrarySearch,
        failedImages: @escaping () -> Set<ImageID>
    ) {
        self.session = session
        librarySearch = search
        self.failedImages = failedImages
        entry.placeholderText = tr("Search all galleries")
        entry.accessibleName = tr("Search")
        // Narrow enough for a small window: the bar's width is the least the window can have.
        entry.widthChars = 14
        let line = Box(.horizontal, spacing: 6)
        line.append(entry, expand: true)
        line.append(chips.chips)
        line.append(filterButton)
        saveButton.tooltip = tr("Keep this search in the sidebar")
        let second = Box(.horizontal, spacing: 6)
        heading.setXAlign(0)
        heading.ellipsize()
        second.append(heading, expand: true)
        second.append(chips.offers, expand: true)
        second.append(scopeButton)
        second.append(saveButton)
        let content = Box(.vertical, spacing: 6)
        content.append(line)
        content.append(second)
        bar.add(content)
        bar.connect(entry)
        entry.onChanged { [weak self] in self?.queryChanged() }
        scopeButton.onToggled { [weak self] in self?.scopeChanged() }
        filterButton.onClicked { [weak self] in self?.showFilterMenu() }
        saveButton.onClicked { [weak self] in self?.save() }
        chips.onRemove = { [weak self] filter in self?.remove(filter) }
        chips.onChoose = { [weak self] filter in
            guard let self else { return }
            entry.text = ""
            add(filter)
            entry.grabFocus()
        }
        _ = window.addAction(handlers.named("search-filter"), parameter: String.self) { [weak self] token in
            guard let self, let filter = SearchFilter(token: token) else { return }
            add(filter)
            entry.grabFocus()
        }
        _ = window.addAction(handlers.named("search-colour")) { [weak self, weak window] in
            guard let window else { return }
            self?.chooseColour(over: window)
        }
        button.accessibleName = tr("Search")
        button.onToggled { [weak self] in
            guard let self, button.isActive != isOpen else { return }
            if button.isActive { open() } else { close() }
        }
        bar.onSearchingChanged { [weak self] in
            guard let self else { return }
            heading.isVisible = lookAlikesOf != nil
            if button.isActive != bar.isSearching { button.isActive = bar.isSearching }
            guard !bar.isSearching else { return }
            stop()
            onClosed()
        }
        // Each change of the library changes the results: they are asked again once the index has taken it up.
        observation = library.observe { [weak self] change in
            switch change {
            case .cells: self?.queueRerun(onlyRecords: self?.library.onlyRecordsChanged == true)
            case .galleries: self?.queueRerun(onlyRecords: false)
            case .progress, .placeholdersDiscarded, .history: break
            }
        }
    }

    var isOpen: Bool { bar.isSearching }

    /// Opens the bar with the keyboard in it; `typed` is what the user began to type in the gallery.
    func open(typing typed: String? = nil) {
        // The index is built after launch in the background: a search bar opened before it is ready hurries it.
        librarySearch.withIndex { _ in }
        bar.isSearching = true
        if let typed {
            entry.text += typed
        } else {
            entry.selectAll()
        }
        // The bar slides in at the next frame; the next key typed may come before it and goes to the entry.
        entry.realize()
        entry.grabFocus()
        if typed != nil { entry.setCursor(-1) }
    }

    /// Shows a smart gallery's search: its words in the entry, its filters as chips.
    func show(_ smart: SmartGallery) { show(smart.query) }

    /// Shows a search: its words in the entry, its filters as chips, and its results.
    func show(_ query: SearchQuery) {
        bar.isSearching = true
        var shownFilters: [SearchFilter] = []
        if let id = query.galleryID { shownFilters.append(.gallery(id)) }
        if let tag = query.tag { shownFilters.append(.tag(tag)) }
        if let domain = query.domain { shownFilters.append(.domain(domain)) }
        if let after = query.addedAfter { shownFilters.append(.addedAfter(after)) }
        if let before = query.addedBefore { shownFilters.append(.addedBefore(before)) }
        if let orientation = query.orientation { shownFilters.append(.orientation(orientation)) }
        if let format = query.format { shownFilters.append(.format(format)) }
        if query.hasNote { shownFilters.append(.hasNote) }
        if query.failedToLoad { shownFilters.append(.failedToLoad) }
        if query.isAnimated { shownFilters.append(.animated) }
        if let colour = query.colour { shownFilters.append(.colour(colour)) }
        filters = shownFilters
        chips.show(filters, library: library)
        if scopeButton.isActive { scopeButton.isActive = false }
        // Setting the words runs the search.
        if entry.text == query.text { run(narrowing: nil) } else { entry.text = query.text }
        chips.offer([], library: library)
    }

    /// More Like This: the bar opens empty, saying whose look-alikes show, and the library's images that look like
    /// image `id` show in the results, nearest first; typing searches words instead. The keyboard stays where the
    /// caller puts it (the results), so focus moves once.
    func showLookAlikes(of id: ImageID, named label: String) {
        lookAlikesOf = id
        heading.text = tr("Images that look like “{image}”", ["image": label])
        heading.isVisible = true
        bar.isSearching = true
        filters = []
        chips.show([], library: library)
        if scopeButton.isActive { scopeButton.isActive = false }
        // Emptying the entry runs the query, which is the look-alikes' now.
        if entry.text.isEmpty { run(narrowing: nil) } else { entry.text = "" }
        chips.offer([], library: library)
    }

    /// Keeps the search as a smart gallery named after its words (or its first filter).
    private func save() {
        let query = query
        guard !query.isEmpty else { return }
        let words = query.text.trimmingCharacters(in: .whitespaces)
        let name = words.isEmpty ? filters.first?.label(in: library) : words
        onSaved(library.saveSearch(query, named: name))
        entry.grabFocus()
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

    // MARK: The query

    private var query: SearchQuery {
        var query = SearchQuery(text: entry.text, galleryID: scopeButton.isActive ? session.galleryID : nil)
        for filter in filters { filter.apply(to: &query) }
        return query
    }

    private func queryChanged() {
        guard isOpen else { return }
        // The search first: it finds a worker free before the tag names offered are read.
        run(narrowing: shown)
        offerChips()
    }

    private func scopeChanged() {
        entry.placeholderText = scopeButton.isActive ? tr("Search this gallery") : tr("Search all galleries")
        // The shown gallery, or the one a chip names: not both.
        if scopeButton.isActive { filters.removeAll { $0.kind == SearchFilter.gallery("").kind } }
        chips.show(filters, library: library)
        run(narrowing: nil)
    }

    private func add(_ filter: SearchFilter) {
        filters.removeAll { $0.kind == filter.kind }
        filters.append(filter)
        if case .gallery = filter, scopeButton.isActive {
            // Turning the toggle off runs the query, with the chip in it.
            scopeButton.isActive = false
            return
        }
        chips.show(filters, library: library)
        offerChips()
        run(narrowing: nil)
    }

    private func remove(_ filter: SearchFilter) {
        filters.removeAll { $0 == filter }
        chips.show(filters, library: library)
        entry.grabFocus()
        run(narrowing: nil)
    }

    private func run(narrowing previous: SearchResults?) {
        running?.cancel()
        running = nil
        MainContext.cancel(completionTimer)
        completionTimer = 0
        let query = query
        if !query.isEmpty { endLookAlikes() }
        if query.isEmpty, let id = lookAlikesOf { return runLookAlikes(of: id) }
        guard !query.isEmpty else {
            shown = nil
            session.showResults(nil)
            return
        }
        #if StallLog
            StallLog.note("query-asked \(query.text)")
        #endif
        // A key that narrows small results refines them here, so they are painted in the frame that shows its letter;
        // so is a word's first key when the index's text blocks say its first results are found quickly.
        if let refined = previous.flatMap({ librarySearch.refine($0, to: query, limit: Self.firstResults) })
            ?? librarySearch.searchWithinBudget(query, limit: Self.firstResults)
        {
            #if StallLog
                StallLog.note("results-came \(query.text)")
            #endif
            return show(refined, current: true)
        }
        let token = CancellationToken()
        running = token
        let failed = query.failedToLoad ? failedImages() : []
        librarySearch.search(
            query, failed: failed, narrowing: previous, limit: Self.firstResults, cancellation: token
        ) { [weak self] results in
            guard let self, running === token else { return }
            running = nil
            #if StallLog
                StallLog.note("results-came \(query.text)")
            #endif
            show(results, current: librarySearch.isCurrent(results))
        }
    }

    /// Looks for the rest of results that stopped at `firstResults`, once typing has paused, from where they stopped.
    private func queueCompletion(of partial: SearchResults) {
        MainContext.cancel(completionTimer)
        completionTimer = MainContext.after(milliseconds: Self.completionDelay) { [weak self] in
            guard let self else { return }
            completionTimer = 0
            guard running == nil, shown == partial else { return }
            let token = CancellationToken()
            running = token
            let failed = partial.query.failedToLoad ? failedImages() : []
            librarySearch.search(partial.query, failed: failed, narrowing: partial, cancellation: token) {
                [weak self] results in
                guard let self, running === token else { return }
                running = nil
                show(results, current: librarySearch.isCurrent(results))
            }
        }
    }

    private func runLookAlikes(of id: ImageID) {
        #if StallLog
            StallLog.note(untranslated("query-asked look-alikes"))
        #endif
        let token = CancellationToken()
        running = token
        librarySearch.lookAlikes(of: id, cancellation: token) { [weak self] results in
            guard let self, running === token else { return }
            running = nil
            #if StallLog
                StallLog.note(untranslated("results-came look-alikes"))
            #endif
            show(results, current: false)
        }
    }

    private func endLookAlikes() {
        lookAlikesOf = nil
        heading.isVisible = false
    }

    private func show(_ results: SearchResults, current: Bool) {
        shown = results
        session.showResults(results, current: current)
        if !results.isComplete { queueCompletion(of: results) }
        #if StallLog
            StallLog.note("results-shown \(results.query.text)")
        #endif
    }

    /// `onlyRecords`: the change only recorded what images are made of (the background's likenesses and animations,
    /// a few times a second in a large library), which changes no tag, nor the results of a query that does not read
    /// it: typing goes on narrowing the results shown, without a search of everything after each record.
    private func queueRerun(onlyRecords: Bool) {
        if onlyRecords && !query.readsRecords && shown?.query.readsRecords != true { return }
        if !onlyRecords {
            tagNames = nil
            libraryChanges += 1
        }
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
        MainContext.cancel(completionTimer)
        completionTimer = 0
        endLookAlikes()
        shown = nil
        filters = []
        chips.show([], library: library)
        // The next search starts afresh, as in Files.
        entry.text = ""
        chips.offer([], library: library)
        session.showResults(nil)
    }

    // MARK: Chips

    /// The tags and galleries whose names (or a tag's last part) begin like the text typed, as chips to choose.
    private func offerChips() {
        var folding = SearchFolding()
        let typed = folding.string(entry.text.trimmingCharacters(in: .whitespaces))
        guard !typed.isEmpty else { return chips.offer([], library: library) }
        if tagNames == nil && tagNamesAsked != libraryChanges {
            // A pass over every image: the galleries are offered at once, the tags when a worker has them.
            let asked = libraryChanges
            tagNamesAsked = asked
            librarySearch.tagsInUse { [weak self] names in
                guard let self, asked == libraryChanges else { return }
                tagNames = names
                if isOpen { offerChips() }
            }
        }
        let tags = (tagNames ?? []).filter { tag in
            tag.folded.hasPrefix(typed) || tag.folded.split(separator: "/").contains { $0.hasPrefix(typed) }
        }
        let galleries = library.galleries.filter { folding.string($0.name).hasPrefix(typed) }
        let offered =
            tags.prefix(4).map { SearchFilter.tag($0.name) } + galleries.prefix(3).map { SearchFilter.gallery($0.id) }
        chips.offer(offered.filter { !filters.contains($0) }, library: library)
    }

    /// The filter menu: every kind, with what the library holds for tags, galleries, sites and formats.
    private func showFilterMenu() {
        librarySearch.withIndex { [weak self] index in self?.showFilterMenu(index.corpus) }
    }

    /// Other Colour…: GTK's colour chooser, starting from the colour filtered by; the colour chosen becomes the filter.
    private func chooseColour(over window: ApplicationWindow) {
        colourChooser?.destroy()
        let chooser = ColorChooserDialog(title: tr("Search by Colour"), over: window)
        let current = filters.lazy.compactMap { filter -> SearchColour? in
            if case .colour(let colour) = filter { colour } else { nil }
        }.first
        if let shown = current?.shown {
            chooser.color = RGBA(
                red: Double(shown >> 16 & 0xFF) / 255, green: Double(shown >> 8 & 0xFF) / 255,
                blue: Double(shown & 0xFF) / 255)
        }
        chooser.onResponse { [weak self, weak chooser] accepted in
            guard let self, let chooser else { return }
            let colour = chooser.color
            chooser.destroy()
            colourChooser = nil
            guard accepted else { return }
            func byte(_ value: Double) -> UInt32 { UInt32((min(max(value, 0), 1) * 255).rounded()) }
            add(.colour(.picked(byte(colour.red) << 16 | byte(colour.green) << 8 | byte(colour.blue))))
            entry.grabFocus()
        }
        colourChooser = chooser
        chooser.present()
    }

    private func showFilterMenu(_ corpus: SearchCorpus) {
        let action = "win.search-filter"
        let menu = MenuModel()
        let kinds = MenuModel()
        let tags = MenuModel()
        for tag in library.tagsInUse().prefix(50) {
            tags.append(label: tag.name, action: action, target: "tag:" + tag.name)
        }
        kinds.appendSubmenu(label: tr("Tag"), tags)
        let galleries = MenuModel()
        for gallery in library.galleries {
            galleries.append(label: gallery.name, action: action, target: SearchFilter.gallery(gallery.id).token)
        }
        kinds.appendSubmenu(label: tr("Gallery"), galleries)
        var domainCounts: [String: Int] = [:]
        var formats: Set<String> = []
        for section in corpus.sections {
            let entries = section.entries
            for position in entries.indices {
                for domain in Set(entries.domains(at: position)) { domainCounts[domain, default: 0] += 1 }
                if let format = entries.format(at: position) { formats.insert(format) }
            }
        }
        let sites = MenuModel()
        for (domain, _) in domainCounts.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }).prefix(20) {
            sites.append(label: domain, action: action, target: SearchFilter.domain(domain).token)
        }
        kinds.appendSubmenu(label: tr("Site"), sites)
        let added = MenuModel()
        let now = Date()
        for (label, days) in [(tr("In the Last Day"), 1), (tr("In the Last Week"), 7), (tr("In the Last Month"), 30)] {
            added.append(
                label: label, action: action, target: SearchFilter.addedAfter(now - Double(days) * 86_400).token)
        }
        for (label, days) in [(tr("Over a Month Ago"), 30), (tr("Over a Year Ago"), 365)] {
            added.append(
                label: label, action: action, target: SearchFilter.addedBefore(now - Double(days) * 86_400).token)
        }
        kinds.appendSubmenu(label: tr("Added"), added)
        let shapes = MenuModel()
        for orientation in SearchEntry.Orientation.allCases {
            let filter = SearchFilter.orientation(orientation)
            shapes.append(label: filter.label(in: library), action: action, target: filter.token)
        }
        kinds.appendSubmenu(label: tr("Orientation"), shapes)
        let formatMenu = MenuModel()
        for format in formats.sorted() {
            formatMenu.append(label: format.uppercased(), action: action, target: SearchFilter.format(format).token)
        }
        kinds.appendSubmenu(label: tr("Format"), formatMenu)
        menu.appendSection(kinds)
        let flags = MenuModel()
        let colours = MenuModel()
        for name in NamedColour.allCases {
            let filter = SearchFilter.colour(.named(name))
            colours.append(label: SearchFilter.name(of: .named(name)), action: action, target: filter.token)
        }
        let otherColour = MenuModel()
        otherColour.append(label: tr("Other Colour…"), action: "win.search-colour")
        colours.appendSection(otherColour)
        kinds.appendSubmenu(label: tr("Colour"), colours)
        flags.append(label: tr("Has a Note"), action: action, target: SearchFilter.hasNote.token)
        flags.append(label: tr("Failed to Load"), action: action, target: SearchFilter.failedToLoad.token)
        flags.append(
            label: SearchFilter.animated.label(in: library), action: action, target: SearchFilter.animated.token)
        menu.appendSection(flags)
        filterMenu?.destroy()
        let popover = Popover(menu: menu, relativeTo: filterButton)
        popover.popup()
        filterMenu = popover
    }
}
