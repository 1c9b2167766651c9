/// What one window holds of the library: which gallery it shows, its selection, keyboard focus
/// and zoom. Edits go to the library, named with the shown gallery; the library's changes that
/// concern this window come back through `onChange`.
@MainActor
public final class GallerySession {
    public enum Change: Equatable {
        /// Cells of the shown gallery were added, removed or reordered.
        case cells
        /// Only the selection changed.
        case selection
        /// A placeholder's progress changed.
        case progress(ImageID)
        /// The window shows another gallery.
        case shownGallery
        /// Galleries were created, renamed, deleted or reordered.
        case galleries
        /// The undo history changed.
        case history
        /// The window began or stopped showing search results, or shows other ones.
        case searchResults
    }

    /// A gallery's part of the search results: its name heads `range` of `cells`.
    public struct ResultSection: Equatable {
        public var galleryID: String
        public var name: String
        public var range: Range<Int>
    }

    public enum SelectionMode { case replace, toggle, extend }

    public let library: GalleryLibrary
    public private(set) var galleryID: String
    public private(set) var selection: Set<ImageID> = []
    private var selectionAnchor: ImageID?
    /// The cell the keyboard acts on.
    public var focusedID: ImageID?
    /// The height a row aims for; zooming changes it.
    public var rowHeight = 220.0
    /// Where the shown gallery stood in the list, to show its neighbour if it is deleted.
    private var lastKnownIndex = 0
    private var observation: Observation?

    public var onChange: (Change) -> Void = { _ in }

    /// The search whose results the window shows instead of its gallery; nil when it shows the gallery.
    public private(set) var searchResults: SearchResults?
    /// The results' cells as the library holds them now, grouped by gallery (`resultSections`).
    private var resultCells = ShownCells([])
    public private(set) var resultSections: [ResultSection] = []
    /// Made when first asked (an action on selected results), not at each keystroke.
    private var resultGalleryStorage: [ImageID: String]?
    /// Where each image stands in its gallery, by gallery, made when results first need it and dropped when the
    /// gallery changes: each keystroke's results are then found in the time their own count takes.
    private var cellIndexes: [String: [ImageID: Int]] = [:]
    /// The gallery's selection and focus while results show, given back when they go.
    private var selectionBeforeSearch: (selection: Set<ImageID>, anchor: ImageID?, focused: ImageID?)?

    public init(library: GalleryLibrary, galleryID: String? = nil) {
        self.library = library
        self.galleryID = galleryID.flatMap { library.gallery($0)?.id } ?? library.initialGalleryID
        lastKnownIndex = library.galleryIndex(self.galleryID) ?? 0
        observation = library.observe { [weak self] change in self?.libraryChanged(change) }
    }

    /// Stops listening to the library (the window closed).
    public func close() {
        observation?.cancel()
        observation = nil
    }

    public var gallery: GalleryEntry { library.gallery(galleryID) ?? library.galleries[0] }

    /// The cells the window shows: the gallery's, or the search results'.
    public var cells: ShownCells { searchResults == nil ? ShownCells(library.cells(of: galleryID)) : resultCells }

    public var isShowingResults: Bool { searchResults != nil }

    /// The gallery that holds a shown cell: the shown gallery, or among results the cell's own.
    public func galleryID(of id: ImageID) -> String {
        guard searchResults != nil else { return galleryID }
        if resultGalleryStorage == nil {
            var byID: [ImageID: String] = [:]
            for section in resultSections {
                for cell in resultCells[section.range] { byID[cell.id] = section.galleryID }
            }
            resultGalleryStorage = byID
        }
        return resultGalleryStorage?[id] ?? galleryID
    }

    /// Shows `results` instead of the gallery, or with nil the gallery again with the selection it had. `current`
    /// says the results were found in the index of the library as it is now.
    public func showResults(_ results: SearchResults?, current: Bool = false) {
        guard results != searchResults else { return }
        if searchResults == nil, results != nil {
            selectionBeforeSearch = (selection, selectionAnchor, focusedID)
            selection = []
            selectionAnchor = nil
            focusedID = nil
        }
        searchResults = results
        if results == nil, let before = selectionBeforeSearch {
            selectionBeforeSearch = nil
            (selection, selectionAnchor, focusedID) = before
        }
        refreshResultCells(current: current)
        forgetMissingCells()
        onChange(.searchResults)
    }

    private func cellIndex(of id: ImageID, in galleryID: String, _ cells: [GalleryCell]) -> Int? {
        let indexes =
            cellIndexes[galleryID]
            ?? Dictionary(cells.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        cellIndexes[galleryID] = indexes
        return indexes[id].flatMap { $0 < cells.count && cells[$0].id == id ? $0 : nil }
    }

    /// Reads the results' cells from the library again: an image that went is left out, one that changed
    /// (its tags, its ratio) shows as it is now. With `current` results (found in the index as the library is
    /// now) a gallery without placeholders holds each result where the index found it: nothing is looked at.
    private func refreshResultCells(current: Bool = false) {
        resultCells = ShownCells([])
        resultSections = []
        resultGalleryStorage = nil
        guard let searchResults else {
            cellIndexes = [:]
            return
        }
        var runs: [(cells: [GalleryCell], positions: [Int])] = []
        var start = 0
        for group in searchResults.groups {
            guard let gallery = library.gallery(group.galleryID) else { continue }
            let cells = library.cells(of: group.galleryID)
            let positions: [Int]
            if current && library.imageCount(of: group.galleryID) == cells.count {
                positions = group.positions
            } else {
                // Where the index found it, unless placeholders or changes since moved it: then by id.
                positions = zip(group.ids, group.positions).compactMap { id, position in
                    position < cells.count && cells[position].id == id
                        ? position : cellIndex(of: id, in: group.galleryID, cells)
                }
            }
            guard !positions.isEmpty else { continue }
            runs.append((cells, positions))
            resultSections.append(
                ResultSection(galleryID: group.galleryID, name: gallery.name, range: start..<start + positions.count))
            start += positions.count
        }
        resultCells = ShownCells(runs: runs)
    }

    public func index(of id: ImageID) -> Int? { cells.firstIndex { $0.id == id } }

    /// The given ids in display order, those that exist.
    public func ordered(_ ids: Set<ImageID>) -> [ImageID] {
        cells.lazy.map(\.id).filter(ids.contains)
    }

    /// Shows another gallery: selection and focus start afresh.
    public func show(_ galleryID: String) {
        guard galleryID != self.galleryID, let index = library.galleryIndex(galleryID) else { return }
        if searchResults != nil { showResults(nil) }
        self.galleryID = galleryID
        lastKnownIndex = index
        selection = []
        selectionAnchor = nil
        focusedID = nil
        onChange(.shownGallery)
    }

    // MARK: Selection

    public func select(_ id: ImageID, mode: SelectionMode) {
        switch mode {
        case .replace:
            selection = [id]
            selectionAnchor = id
        case .toggle:
            if selection.remove(id) == nil { selection.insert(id) }
            selectionAnchor = id
        case .extend:
            let cells = cells
            guard let anchor = selectionAnchor, let from = cells.firstIndex(where: { $0.id == anchor }),
                let to = cells.firstIndex(where: { $0.id == id })
            else {
                select(id, mode: .replace)
                return
            }
            selection = Set(cells[min(from, to)...max(from, to)].map(\.id))
        }
        onChange(.selection)
    }

    /// Selects exactly these cells (those that exist), as after a drop.
    public func select(_ ids: [ImageID]) {
        selection = Set(ids)
        selectionAnchor = ids.first
        onChange(.selection)
    }

    public func selectAll() {
        selection = Set(cells.map(\.id))
        onChange(.selection)
    }

    public func clearSelection() {
        guard !selection.isEmpty else { return }
        selection = []
        selectionAnchor = nil
        onChange(.selection)
    }

    // MARK: Editing the shown gallery

    @discardableResult
    /// Reorders the shown gallery; results are in their galleries' order, and are not reordered.
    public func move(_ ids: [ImageID], toInsertionIndex index: Int) -> Bool {
        guard searchResults == nil else { return false }
        return library.move(ids, in: galleryID, toInsertionIndex: index)
    }

    /// Removes shown cells from the gallery that holds each (among results, several: one undo step each).
    @discardableResult
    public func remove(_ ids: Set<ImageID>) -> [GalleryCell] {
        guard searchResults != nil else { return library.remove(ids, from: galleryID) }
        let byGallery = Dictionary(grouping: ids) { galleryID(of: $0) }
        return resultSections.flatMap { section in
            byGallery[section.galleryID].map { library.remove(Set($0), from: section.galleryID) } ?? []
        }
    }

    /// A placeholder in the shown gallery; none among results, which only show what the library has.
    public func insertPlaceholder(at index: Int, label: String) -> ImageID? {
        guard searchResults == nil else { return nil }
        return library.insertPlaceholder(in: galleryID, at: index, label: label)
    }

    // MARK: The library's changes

    private func libraryChanged(_ change: GalleryLibrary.Change) {
        switch change {
        case .cells(let galleryID):
            // Cells changed where they stand (images arrived in their placeholders, records made) keep every place.
            let keptPlaces = library.cellsChangedInPlace != nil
            if !keptPlaces { cellIndexes[galleryID] = nil }
            if searchResults != nil {
                guard let section = resultSections.firstIndex(where: { $0.galleryID == galleryID }) else { return }
                if keptPlaces {
                    // Every result is where it was: its gallery's run reads the cells as they are now, and the other
                    // galleries' runs are not looked at (records are made a gallery at a time, hundreds at once).
                    resultCells.replaceCells(ofRun: section, with: library.cells(of: galleryID))
                } else {
                    refreshResultCells()
                }
            } else {
                guard galleryID == self.galleryID else { return }
            }
            if !keptPlaces { forgetMissingCells() }
            onChange(.cells)
        case .progress(let galleryID, let id):
            if galleryID == self.galleryID && searchResults == nil { onChange(.progress(id)) }
        case .galleries:
            cellIndexes = [:]
            if searchResults != nil { refreshResultCells() }
            if let index = library.galleryIndex(galleryID) {
                lastKnownIndex = index
                forgetMissingCells()
                onChange(.galleries)
            } else {
                // The shown gallery was deleted: its neighbour takes its place.
                let galleries = library.galleries
                galleryID = galleries[min(lastKnownIndex, galleries.count - 1)].id
                lastKnownIndex = min(lastKnownIndex, galleries.count - 1)
                selection = []
                selectionAnchor = nil
                focusedID = nil
                onChange(.shownGallery)
            }
        case .placeholdersDiscarded:
            break
        case .history:
            onChange(.history)
        }
    }

    /// Selection, anchor and focus keep only cells that are still in the shown gallery.
    private func forgetMissingCells() {
        guard !selection.isEmpty || selectionAnchor != nil || focusedID != nil else { return }
        let present = Set(cells.map(\.id))
        selection.formIntersection(present)
        if let anchor = selectionAnchor, !present.contains(anchor) { selectionAnchor = nil }
        if let focused = focusedID, !present.contains(focused) { focusedID = nil }
    }
}
