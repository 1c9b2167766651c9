import Foundation

/// The document, one per app: every gallery, the placeholders waiting in each, and one undo
/// history whose edits name their gallery. Windows observe it through their sessions; every change
/// is published to all observers and the saved state goes to `onSave`. Plain Swift, no GTK.
/// Each gallery's cells are the one store of its images: the saved state is derived from them.
@MainActor
public final class GalleryLibrary {
    public enum Change: Equatable, Sendable {
        /// Cells of this gallery were added, removed or reordered.
        case cells(galleryID: String)
        /// A placeholder's progress or label changed.
        case progress(galleryID: String, ImageID)
        /// Galleries were created, renamed, deleted or reordered.
        case galleries
        /// Placeholders went before their image arrived (deleted, or their gallery was): their
        /// downloads are no longer wanted.
        case placeholdersDiscarded([ImageID])
        /// The undo history changed (a step recorded, undone or redone).
        case history
    }

    /// The galleries in sidebar order.
    private var shelves: [Shelf]
    /// Where each gallery's shelf stood when last looked for: checked at each use, looked for again when it moved.
    private var shelfIndexes: [String: Int] = [:]
    /// What the saved state holds besides its galleries, written back as read.
    private var version: Int
    private var shownGalleryID: String?
    private var sidebarSetting: Bool?
    private var playAnimationsSetting: Bool?
    /// Searches kept as sidebar rows, below the galleries.
    public private(set) var smartGalleries: [SmartGallery]
    private var unknownFields: [String: RawJSON]
    /// Which gallery each placeholder waits in.
    private var placeholderGallery: [ImageID: String] = [:]
    /// Which gallery holds each image: an edit finds its image in one gallery, not by going through all of them.
    private var imageGallery: ImageGalleryTable
    /// The galleries a launch that read its shown gallery first has not read yet, with the count of images the
    /// snapshot gives each: the sidebar counts them before they arrive (`adoptRest`).
    private var unreadCounts: [String: Int]
    /// Placeholders whose images make one undo step (a folder, a file chooser's selection), by key.
    private var arrivalBatches: [Int: ArrivalBatch] = [:]
    private var batchOfPlaceholder: [ImageID: Int] = [:]
    private var nextBatchKey = 0
    public let history = UndoHistory()
    private let observers = Observers<Change>()
    /// While a `.cells` change is published: the images of that gallery that arrived or changed, its other images
    /// holding what they held (they may have moved); nil when any may have changed (a merge from elsewhere). Observers
    /// that keep something per image (the search index) redo only these.
    public private(set) var imagesChanged: Set<ImageID>?
    /// While a `.cells` change is published: the first of that gallery's cells that changed, those before it as they
    /// were (0 when any may have changed). A view lays out again from there: an arrival at the end costs its own cells.
    public private(set) var firstCellChanged = 0
    /// While a `.cells` change is published: when all it did was bring these images in (placeholders fulfilled), where
    /// each now stands among the gallery's cells and among its images, ascending, the other images as they were in the
    /// same order; nil for any other change. The search index and the animation survey then look at these alone.
    public private(set) var imagesArrived: [ArrivedImage]?
    /// While a `.cells` change is published: when every cell kept its id and place (placeholders fulfilled, images'
    /// records), the cells whose contents changed, ascending; nil when cells may have come, gone or moved. A session's
    /// selection then stands, and the search index rewrites these entries alone.
    public private(set) var cellsChangedInPlace: [Int]?
    /// While a `.cells` change is published: whether all it did was record, of the images of `cellsChangedInPlace`,
    /// what no cell's size, tags or note depend on (an animation summary, a likeness, a kept original): a view draws
    /// them again, and what follows places, sizes or tags has nothing to redo.
    public private(set) var onlyRecordsChanged = false
    /// While a `.cells` change is published: whether all it did was record what was measured of the images of
    /// `cellsChangedInPlace` (an animation summary, a likeness), which leaves their addresses, texts, tags and formats
    /// as they were: the search index sets those measures in its records alone, folding no text again.
    public private(set) var onlyMeasuresChanged = false

    /// An image that took its placeholder's cell.
    public struct ArrivedImage: Equatable, Sendable {
        public var cellIndex: Int
        public var imageIndex: Int
        public var id: ImageID
    }

    /// Receives every state worth saving.
    public var onSave: (GalleryState) -> Void = { _ in }
    /// When set, receives the images that land in a gallery (each at its index among its images once those before it
    /// are in) instead of `onSave` the library: an arrival then costs what landed, not a gallery's saved list made
    /// again (`JournalSaver.save(landed:in:)` puts them in the state it was last given). It returns false when it
    /// cannot place them (a gallery the saver does not hold yet): `onSave` then gets the library.
    public var onLanded: ((_ galleryID: String, _ images: [IndexedImage]) -> Bool)?

    public convenience init(state: GalleryState) { self.init(prepared: Prepared(state)) }

    /// Takes up a library prepared on a worker: a launch's GTK thread does nothing per image.
    public init(prepared: Prepared) {
        shelves = prepared.shelves
        imageGallery = prepared.imageGallery
        unreadCounts = prepared.unreadCounts
        version = prepared.state.version
        shownGalleryID = prepared.state.shownGalleryID
        sidebarSetting = prepared.state.sidebarVisible
        playAnimationsSetting = prepared.state.playAnimations
        smartGalleries = prepared.state.smartGalleries
        unknownFields = prepared.state.unknownFields
    }

    /// The work of making a library out of a saved state that goes over every image (ids made unique, each
    /// gallery's cells): done on any thread, such as the one that read the state file.
    public struct Prepared: Sendable {
        fileprivate let state: GalleryState
        fileprivate let shelves: [Shelf]
        fileprivate let imageGallery: ImageGalleryTable
        fileprivate let unreadCounts: [String: Int]

        /// `unreadCounts`: the galleries whose images are still to come, with how many each holds.
        public init(_ state: GalleryState, unreadCounts: [String: Int] = [:]) {
            var (state, imageGallery) = state.withUniqueIDsAndTheirGalleries()
            self.imageGallery = imageGallery
            self.unreadCounts = unreadCounts
            if state.galleries.isEmpty { state.galleries = GalleryState.initial.galleries }
            shelves = state.galleries.map(Shelf.init)
            // Only what is not in the shelves: each gallery's images would be a second copy of every image.
            state.galleries = []
            self.state = state
        }
    }

    /// A gallery as the library holds it: its name, and its cells, from which its saved images are derived.
    fileprivate struct Shelf: Sendable {
        var entry: GalleryEntry
        var unknownFields: [String: RawJSON]
        var cells: CellList {
            didSet {
                savedImages = nil
                tagUses = nil
            }
        }
        /// The images as last derived from the cells: every state saved until they change shares this one array.
        var savedImages: [GalleryImage]?
        /// The tags its images carry with their parents, by key, counted again only once its cells changed.
        var tagUses: [String: TagUse]?

        init(_ gallery: Gallery) {
            entry = GalleryEntry(id: gallery.id, name: gallery.name)
            unknownFields = gallery.unknownFields
            cells = CellList(images: gallery.images)
            savedImages = gallery.images
        }

        var saved: Gallery {
            var gallery = Gallery(id: entry.id, name: entry.name, images: savedImages ?? cells.images)
            gallery.unknownFields = unknownFields
            return gallery
        }
    }

    // MARK: Reading

    public var galleries: [GalleryEntry] { shelves.map(\.entry) }

    public func gallery(_ id: String) -> GalleryEntry? { galleryIndex(id).map { shelves[$0].entry } }

    /// A search's results name hundreds of galleries: each is found at once, not by going through every shelf.
    public func galleryIndex(_ id: String) -> Int? {
        if let index = shelfIndexes[id], index < shelves.count, shelves[index].entry.id == id { return index }
        guard let index = shelves.firstIndex(where: { $0.entry.id == id }) else { return nil }
        if shelfIndexes.count > shelves.count * 2 { shelfIndexes = [:] }
        shelfIndexes[id] = index
        return index
    }

    /// A gallery as it is saved: its images without placeholders, derived from its cells.
    public func savedGallery(_ id: String) -> Gallery? { galleryIndex(id).map { shelves[$0].saved } }

    /// What is saved: every gallery's images (never its placeholders), derived from the cells.
    public var state: GalleryState {
        // Only the galleries changed since the last state derive their images again; the others hand theirs on.
        for index in shelves.indices where shelves[index].savedImages == nil {
            shelves[index].savedImages = shelves[index].cells.images
        }
        var state = GalleryState(
            galleries: shelves.map(\.saved), shownGalleryID: shownGalleryID,
            sidebarVisible: sidebarSetting)
        state.version = version
        state.smartGalleries = smartGalleries
        state.playAnimations = playAnimationsSetting
        state.unknownFields = unknownFields
        return state
    }

    /// The cells of a gallery in display order, placeholders included.
    public func cells(of galleryID: String) -> [GalleryCell] { cellList(galleryID)?.cells ?? [] }

    public func imageCount(of galleryID: String) -> Int {
        guard let cells = cellList(galleryID)?.cells else { return 0 }
        if cells.isEmpty, let unread = unreadCounts[galleryID] { return unread }
        return cells.count - placeholderGallery.values.lazy.filter { $0 == galleryID }.count
    }

    /// The gallery a new window shows at launch: the one shown last, else the first.
    public var initialGalleryID: String {
        if let shown = shownGalleryID, gallery(shown) != nil { return shown }
        return shelves[0].entry.id
    }

    /// The gallery that holds a cell, and the cell's index in it.
    public func location(of id: ImageID) -> (galleryID: String, index: Int)? {
        guard let galleryID = placeholderGallery[id] ?? imageGallery[id], let index = cellList(galleryID)?.index(of: id)
        else { return nil }
        return (galleryID, index)
    }

    public var canDeleteGallery: Bool { shelves.count > 1 }

    private func cellList(_ galleryID: String) -> CellList? { galleryIndex(galleryID).map { shelves[$0].cells } }

    /// Edits a gallery's cells in place; nothing happens when the gallery is gone.
    private func editCells<Result>(of galleryID: String, _ edit: (inout CellList) -> Result) -> Result? {
        guard let index = galleryIndex(galleryID) else { return nil }
        return edit(&shelves[index].cells)
    }

    // MARK: Observing

    /// Calls `handler` for every change until the returned observation is cancelled or released.
    public func observe(_ handler: @escaping (Change) -> Void) -> Observation { observers.add(handler) }

    private func publish(_ change: Change) { observers.send(change) }

    /// Publishes a change of a gallery's cells in which only `changed` images arrived or changed (nil: any may have).
    private func publishCells(
        _ galleryID: String, changed: Set<ImageID>?, fromCell firstCell: Int = 0,
        arrived: [ArrivedImage]? = nil, inPlace: [Int]? = nil, onlyRecords: Bool = false, onlyMeasures: Bool = false
    ) {
        imagesChanged = changed
        firstCellChanged = firstCell
        imagesArrived = arrived
        cellsChangedInPlace = inPlace ?? arrived?.map(\.cellIndex)
        onlyRecordsChanged = onlyRecords
        onlyMeasuresChanged = onlyMeasures
        publish(.cells(galleryID: galleryID))
        imagesChanged = nil
        firstCellChanged = 0
        imagesArrived = nil
        cellsChangedInPlace = nil
        onlyRecordsChanged = false
        onlyMeasuresChanged = false
    }

    /// Publishes records made in place in these cells of each gallery: no cell moved, came, went or changed size.
    /// `onlyMeasures`: the records are measures alone (see `onlyMeasuresChanged`).
    private func publishRecords(
        _ cellsByGallery: [(galleryID: String, cells: [Int])], of ids: Set<ImageID>, onlyMeasures: Bool = false
    ) {
        for (galleryID, cells) in cellsByGallery {
            let sorted = cells.sorted()
            publishCells(
                galleryID, changed: ids, fromCell: sorted.first ?? 0, inPlace: sorted, onlyRecords: true,
                onlyMeasures: onlyMeasures)
        }
    }

    /// Whether the library holds this image or placeholder, without looking through its gallery.
    public func holds(_ id: ImageID) -> Bool { placeholderGallery[id] != nil || imageGallery[id] != nil }

    /// The gallery that holds this image (not a placeholder), found without looking through the galleries.
    public func galleryID(ofImage id: ImageID) -> String? { imageGallery[id] }

    // MARK: Editing images

    /// Moves cells of a gallery, keeping their relative order, so that they start at
    /// `insertionIndex` of the list *without* them. Returns false when nothing would change.
    @discardableResult
    public func move(_ ids: [ImageID], in galleryID: String, toInsertionIndex insertionIndex: Int) -> Bool {
        guard let list = cellList(galleryID) else { return false }
        let cells = list.cells
        let moving = Set(ids)
        let original = cells.indices.filter { moving.contains(cells[$0].id) }
        guard !original.isEmpty else { return false }
        let destination = min(max(insertionIndex, 0), cells.count - original.count)
        // Already side by side where they would go: nothing changes.
        guard original != Array(destination..<destination + original.count) else { return false }
        var reordered = cells
        reordered.removeSubranges(RangeSet(original, within: cells))
        reordered.insert(contentsOf: original.map { cells[$0] }, at: destination)
        let movedImages = original.indices.filter { !cells[original[$0]].isPlaceholder }
        let originalImageIndices = list.imageIndices(ofCells: movedImages.map { original[$0] })
        editCells(of: galleryID) { $0.cells = reordered }
        let imageIndices = cellList(galleryID)!.imageIndices(ofCells: movedImages.map { destination + $0 })
        guard imageIndices != originalImageIndices else {
            publishCells(galleryID, changed: [])  // only placeholders moved: nothing to save or undo
            return true
        }
        let movedIDs = movedImages.map { cells[original[$0]].id }
        record(
            .images(
                galleryID: galleryID,
                .move(
                    ids: movedIDs, originalIndices: originalImageIndices,
                    destination: imageIndices[0])),
            name: trPlural("Move Image", "Move {count} Images", movedImages.count))
        commit(galleries: [galleryID], changed: [])
        return true
    }

    /// Removes cells (a trash drop, the Delete key). Placeholders removed this way are given up.
    @discardableResult
    public func remove(_ ids: Set<ImageID>, from galleryID: String) -> [GalleryCell] {
        guard let list = cellList(galleryID) else { return [] }
        let removed = list.cells.enumerated().filter { ids.contains($0.element.id) }
        guard !removed.isEmpty else { return [] }
        let removedImages = removed.filter { !$0.element.isPlaceholder }
        let entries = zip(
            list.imageIndices(ofCells: removedImages.map(\.offset)), removedImages.compactMap(\.element.image)
        )
        .map { IndexedImage(index: $0, image: $1) }
        var kept = list.cells
        kept.removeSubranges(RangeSet(removed.map(\.offset), within: kept))
        editCells(of: galleryID) { $0.cells = kept }
        for (_, cell) in removedImages { imageGallery[cell.id] = nil }
        let placeholders = removed.filter(\.element.isPlaceholder).map(\.element.id)
        for id in placeholders { placeholderGallery[id] = nil }
        if !entries.isEmpty {
            record(
                .images(galleryID: galleryID, .remove(entries)),
                name: trPlural("Delete Image", "Delete {count} Images", entries.count))
        }
        for id in placeholders { leaveBatch(id) }
        if !placeholders.isEmpty { publish(.placeholdersDiscarded(placeholders)) }
        commit(galleries: [galleryID], changed: [])
        return removed.map(\.element)
    }

    /// Moves (or copies, with new ids and the same URLs) images of one gallery into another, at
    /// `insertionIndex` of its cells, or at its end. One undo step. Returns the ids the images
    /// have in `destination`, in order. Placeholders stay where they are.
    @discardableResult
    public func transfer(
        _ ids: [ImageID], from source: String, to destination: String, atInsertionIndex insertionIndex: Int? = nil,
        copy: Bool
    ) -> [ImageID] {
        guard source != destination || copy, let sourceList = cellList(source),
            let destinationList = cellList(destination), let destinationName = gallery(destination)?.name
        else { return [] }
        let wanted = Set(ids)
        let moving = sourceList.cells.enumerated().filter {
            wanted.contains($0.element.id) && !$0.element.isPlaceholder
        }
        guard !moving.isEmpty else { return [] }
        let cellInsertion = min(max(insertionIndex ?? destinationList.cells.count, 0), destinationList.cells.count)
        let firstImageIndex = destinationList.imageIndices(ofCells: [cellInsertion])[0]
        let images = moving.compactMap(\.element.image)
        let arriving = images.enumerated().map { offset, image in
            var arrived = image
            if copy { arrived.id = .make() }
            return IndexedImage(index: firstImageIndex + offset, image: arrived)
        }
        let insertion = LibraryEdit.images(galleryID: destination, .insert(arriving))
        if copy {
            apply(insertion)
            record(
                insertion,
                name: trPlural(
                    "Copy Image to “{gallery}”", "Copy {count} Images to “{gallery}”", images.count,
                    ["gallery": destinationName]))
            commit(galleries: [destination], changed: Set(arriving.map(\.image.id)))
        } else {
            let leaving = zip(sourceList.imageIndices(ofCells: moving.map(\.offset)), images).map {
                IndexedImage(index: $0, image: $1)
            }
            let edit = LibraryEdit.group([.images(galleryID: source, .remove(leaving)), insertion])
            apply(edit)
            record(
                edit,
                name: trPlural(
                    "Move Image to “{gallery}”", "Move {count} Images to “{gallery}”", images.count,
                    ["gallery": destinationName]))
            commit(galleries: [source, destination], changed: Set(arriving.map(\.image.id)))
        }
        return arriving.map(\.image.id)
    }

    // MARK: Placeholders

    /// A placeholder in a gallery at `index` of its cells (nil: at the end) for an image on its
    /// way. It is never saved. nil when the gallery is gone.
    public func insertPlaceholder(in galleryID: String, at index: Int? = nil, label: String) -> ImageID? {
        insertPlaceholders(in: galleryID, at: index, labels: [label])?.first
    }

    /// Placeholders side by side from `index` (the end when nil), one change for all of them: a
    /// drop of a hundred images lays the gallery out once.
    public func insertPlaceholders(in galleryID: String, at index: Int? = nil, labels: [String]) -> [ImageID]? {
        let cells = labels.map { GalleryCell(id: ImageID.make(), content: .placeholder(label: $0, progress: nil)) }
        let inserted: Int? = editCells(of: galleryID) { list in
            let at = min(max(index ?? list.cells.count, 0), list.cells.count)
            list.cells.insert(contentsOf: cells, at: at)
            return at
        }
        guard let inserted else { return nil }
        for cell in cells { placeholderGallery[cell.id] = galleryID }
        publishCells(galleryID, changed: [], fromCell: inserted)
        return cells.map(\.id)
    }

    public func updatePlaceholder(_ id: ImageID, progress: Double?) {
        updatePlaceholderContent(id) { label, _ in (label, progress) }
    }

    /// Names a placeholder once what it waits for is known (the drop's data arrived).
    public func relabelPlaceholder(_ id: ImageID, label: String) {
        updatePlaceholderContent(id) { _, progress in (label, progress) }
    }

    private func updatePlaceholderContent(_ id: ImageID, _ update: (String, Double?) -> (String, Double?)) {
        guard let galleryID = placeholderGallery[id],
            let changed = editCells(
                of: galleryID,
                { list in
                    guard let index = list.index(of: id),
                        case .placeholder(let label, let progress) = list.cells[index].content
                    else { return false }
                    let (newLabel, newProgress) = update(label, progress)
                    guard newLabel != label || newProgress != progress else { return false }
                    list.cells[index].content = .placeholder(label: newLabel, progress: newProgress)
                    return true
                }), changed
        else { return }
        publish(.progress(galleryID: galleryID, id))
    }

    /// The image arrived: it takes the placeholder's place as it is now, in whichever gallery the
    /// placeholder waits. Returns the gallery, or nil when the placeholder is gone.
    @discardableResult
    public func fulfillPlaceholder(_ id: ImageID, with image: GalleryImage) -> String? {
        fulfillPlaceholders([(id, image)]).first
    }

    /// Several images that arrived together, published and saved once. Each is an undo step of its
    /// own, unless its placeholder belongs to a batch (`groupArrivals`). Returns the galleries they landed in.
    @discardableResult
    public func fulfillPlaceholders(_ arrivals: [(placeholder: ImageID, image: GalleryImage)]) -> [String] {
        var touched: [String] = []
        var byGallery: [String: [(order: Int, image: GalleryImage)]] = [:]
        for (order, (id, arrived)) in arrivals.enumerated() {
            guard let galleryID = placeholderGallery.removeValue(forKey: id) else { continue }
            var image = arrived
            image.id = id
            byGallery[galleryID, default: []].append((order, image))
            if !touched.contains(galleryID) { touched.append(galleryID) }
        }
        var settledBatches: [Int] = []
        var landings: [String: Landing] = [:]
        var steps: [(order: Int, edit: LibraryEdit)] = []
        for galleryID in touched {
            guard let landing = land(byGallery[galleryID] ?? [], in: galleryID) else { continue }
            landings[galleryID] = landing
            for (order, image, imageIndex) in landing.placed {
                imageGallery[image.id] = galleryID
                if let key = batchOfPlaceholder.removeValue(forKey: image.id) {
                    arrivalBatches[key]?.waiting.remove(image.id)
                    arrivalBatches[key]?.arrived.append((image.id, galleryID))
                    if arrivalBatches[key]?.waiting.isEmpty == true, !settledBatches.contains(key) {
                        settledBatches.append(key)
                    }
                } else {
                    steps.append(
                        (order, .images(galleryID: galleryID, .insert([IndexedImage(index: imageIndex, image: image)])))
                    )
                }
            }
        }
        for (_, edit) in steps.sorted(by: { $0.order < $1.order }) { record(edit, name: tr("Add Image")) }
        for key in settledBatches { recordBatch(key) }
        let landed = touched.filter { landings[$0] != nil }
        let changed = Set(arrivals.map(\.placeholder))
        // Saved before it is published: an observer's own edit then saves after it.
        var placed = onLanded != nil
        if let onLanded {
            for galleryID in landed where !onLanded(galleryID, landings[galleryID]!.landed) { placed = false }
        }
        for galleryID in landed {
            let landing = landings[galleryID]!
            publishCells(galleryID, changed: changed, fromCell: landing.firstCell, arrived: landing.arrived)
        }
        if !placed && !landed.isEmpty { onSave(state) }
        return landed
    }

    /// Where a gallery's arrivals went: each image with its order among the arrivals and the image index an undo step
    /// of its own records (the images before it then, arrivals earlier in the order included), the first cell they
    /// changed, and where they stand among the images once all are in.
    private struct Landing {
        var placed: [(order: Int, image: GalleryImage, imageIndex: Int)] = []
        var firstCell = 0
        var arrived: [ArrivedImage] = []
        /// The images, each at its index among the images once all are in.
        var landed: [IndexedImage] = []
    }

    /// Puts each image in its placeholder's cell, found in one pass over the gallery however many arrive.
    private func land(_ images: [(order: Int, image: GalleryImage)], in galleryID: String) -> Landing? {
        guard let shelf = galleryIndex(galleryID) else { return nil }
        let orderOf = Dictionary(images.map { ($0.image.id, $0.order) }, uniquingKeysWith: { first, _ in first })
        // Before the arrivals' placeholders went from `placeholderGallery`, the gallery held this many images.
        let imagesBeforeLanding = imageCount(of: galleryID) - orderOf.count
        // Found without a copy of the cells held: the edit below then changes them in place.
        let found = Self.spots(of: orderOf, in: shelves[shelf].cells.cells, imageCount: imagesBeforeLanding)
        guard let first = found.first else { return nil }
        let imageOf = Dictionary(images.map { ($0.order, $0.image) }, uniquingKeysWith: { first, _ in first })
        var landing = Landing(firstCell: first.cellIndex)
        editCells(of: galleryID) { list in
            for (rank, spot) in found.enumerated() {
                guard let image = imageOf[spot.order] else { continue }
                list.cells[spot.cellIndex] = GalleryCell(image)
                let earlier = found[..<rank].count { $0.order < spot.order }
                landing.placed.append((spot.order, image, spot.imagesBefore + earlier))
                landing.arrived.append(
                    ArrivedImage(cellIndex: spot.cellIndex, imageIndex: spot.imagesBefore + rank, id: image.id))
                landing.landed.append(IndexedImage(index: spot.imagesBefore + rank, image: image))
            }
        }
        return landing
    }

    /// The cells of these placeholders (with their order among the arrivals) and how many of the gallery's
    /// `imageCount` images come before each, ascending: looked for from both ends at once, so arrivals near either end
    /// cost the cells between them and that end.
    private nonisolated static func spots(
        of orderOf: [ImageID: Int], in cells: [GalleryCell], imageCount: Int
    ) -> [(cellIndex: Int, imagesBefore: Int, order: Int)] {
        var front: [(cellIndex: Int, imagesBefore: Int, order: Int)] = []
        var back: [(cellIndex: Int, imagesBefore: Int, order: Int)] = []
        var low = 0
        var high = cells.count - 1
        var imagesBefore = 0
        var imagesAfter = 0
        while front.count + back.count < orderOf.count && low <= high {
            if !cells[low].isPlaceholder {
                imagesBefore += 1
            } else if let order = orderOf[cells[low].id] {
                front.append((low, imagesBefore, order))
            }
            low += 1
            guard front.count + back.count < orderOf.count && low <= high else { break }
            if !cells[high].isPlaceholder {
                imagesAfter += 1
            } else if let order = orderOf[cells[high].id] {
                back.append((high, imageCount - imagesAfter, order))
            }
            high -= 1
        }
        return front + back.reversed()
    }

    /// The download failed: the placeholder goes, nothing else changes.
    public func discardPlaceholder(_ id: ImageID) {
        guard let galleryID = placeholderGallery.removeValue(forKey: id), let index = cellList(galleryID)?.index(of: id)
        else { return }
        editCells(of: galleryID) { _ = $0.cells.remove(at: index) }
        leaveBatch(id)
        publishCells(galleryID, changed: [], fromCell: index)
    }

    // MARK: Batches

    /// Placeholders of one batch: those still waiting, and the images that took the others' places.
    private struct ArrivalBatch {
        var waiting: Set<ImageID>
        var arrived: [(id: ImageID, galleryID: String)] = []
    }

    /// Makes the images of these placeholders one undo step ("Add 12 Images"), however and
    /// whenever each arrives: a folder or a file chooser's selection is undone as it was added.
    /// The step is recorded when the last of them has arrived or gone; until then each image shows
    /// (and is saved) as it arrives. Placeholders already in a batch, or gone, are left out.
    public func groupArrivals(_ placeholders: [ImageID]) {
        let waiting = Set(placeholders.filter { placeholderGallery[$0] != nil && batchOfPlaceholder[$0] == nil })
        guard waiting.count > 1 else { return }
        let key = nextBatchKey
        nextBatchKey += 1
        arrivalBatches[key] = ArrivalBatch(waiting: waiting)
        for id in waiting { batchOfPlaceholder[id] = key }
    }

    /// A placeholder went without its image: its batch may now be complete.
    private func leaveBatch(_ id: ImageID) {
        guard let key = batchOfPlaceholder.removeValue(forKey: id) else { return }
        arrivalBatches[key]?.waiting.remove(id)
        if arrivalBatches[key]?.waiting.isEmpty == true { recordBatch(key) }
    }

    /// One step inserting the batch's images that are still there, where they stand now.
    private func recordBatch(_ key: Int) {
        guard let batch = arrivalBatches.removeValue(forKey: key) else { return }
        var galleryOrder: [String] = []
        for (_, galleryID) in batch.arrived where !galleryOrder.contains(galleryID) { galleryOrder.append(galleryID) }
        var edits: [LibraryEdit] = []
        var count = 0
        for galleryID in galleryOrder {
            guard let list = cellList(galleryID) else { continue }
            let wanted = Set(batch.arrived.filter { $0.galleryID == galleryID }.map(\.id))
            let found = list.cells.enumerated().filter { wanted.contains($0.element.id) && !$0.element.isPlaceholder }
            guard !found.isEmpty else { continue }
            let entries = zip(list.imageIndices(ofCells: found.map(\.offset)), found.compactMap(\.element.image))
                .map { IndexedImage(index: $0, image: $1) }
            edits.append(.images(galleryID: galleryID, .insert(entries)))
            count += entries.count
        }
        guard !edits.isEmpty else { return }
        // "Add Image" alone is the message of a single drop already.
        record(
            edits.count == 1 ? edits[0] : .group(edits),
            name: count == 1 ? tr("Add Image") : trPlural("Add {count} Image", "Add {count} Images", count))
    }

    /// Records a better aspect ratio once an image has been decoded (the file had none, or a wrong one).
    public func correctAspectRatio(of id: ImageID, to ratio: Double) {
        guard ratio.isFinite, ratio > 0, let (galleryID, index) = location(of: id),
            var image = cellList(galleryID)?.cells[index].image, abs(image.aspectRatio - ratio) > 0.005
        else { return }
        image.aspectRatio = ratio
        editCells(of: galleryID) { $0.cells[index].content = .image(image) }
        publishCells(galleryID, changed: [id], fromCell: index, inPlace: [index])
        onSave(state)
    }

    /// Records the original the library now keeps of an image (bytes carried over from the cache, fetched
    /// again, or kept with a new address), and the likeness measured from it: no undo step, as nothing the user did
    /// changed.
    public func recordOriginal(_ original: KeptOriginal, of id: ImageID, url: String? = nil, likeness: Likeness? = nil)
    {
        guard let (galleryID, index) = location(of: id), var image = cellList(galleryID)?.cells[index].image,
            image.original != original || (url != nil && url != image.url)
                || (likeness != nil && likeness != image.likeness)
        else { return }
        image.original = original
        if let url { image.url = url }
        if let likeness { image.likeness = likeness }
        editCells(of: galleryID) { $0.cells[index].content = .image(image) }
        publishRecords([(galleryID, [index])], of: [id])
        onSave(state)
    }

    /// Records what the headers of these images said of their frames: no undo step, as nothing the user did changed,
    /// and no save of its own, as viewing never rewrites the file: the next save writes them. Images gone meanwhile
    /// are passed over; the change is published once a gallery. Each comes with the gallery and the cell index where
    /// its image stood when it was read, looked at first.
    public func recordAnimations(_ found: [(id: ImageID, galleryID: String, cellIndex: Int, summary: AnimationSummary)])
    {
        recordInPlace(found.map { ($0.id, $0.galleryID, $0.cellIndex) }, of: Set(found.map(\.id))) { image, at in
            guard image.animation != found[at].summary else { return false }
            image.animation = found[at].summary
            return true
        }
    }

    /// Records likenesses measured in the background (a library from before they were, an image carried over): no
    /// undo step, as nothing the user did changed; one change a gallery, and no save of its own, as a save writes the
    /// whole library: the caller saves (`save()`) once it has recorded enough, else the next save writes them. Each
    /// comes with the gallery and the cell index where its image stood when it was asked for, looked at first.
    public func recordLikenesses(_ measured: [(id: ImageID, galleryID: String, cellIndex: Int, likeness: Likeness)]) {
        recordInPlace(measured.map { ($0.id, $0.galleryID, $0.cellIndex) }, of: Set(measured.map(\.id))) { image, at in
            guard image.likeness != measured[at].likeness else { return false }
            image.likeness = measured[at].likeness
            return true
        }
    }

    /// Changes images where they stand, each found at the cell its hint names or else looked for in its gallery
    /// (`record` says whether it changed the `at`th image, and changes only what was measured of it), and publishes
    /// the records made, once a gallery.
    private func recordInPlace(
        _ hints: [(id: ImageID, galleryID: String, cellIndex: Int)], of ids: Set<ImageID>,
        _ record: (inout GalleryImage, _ at: Int) -> Bool
    ) {
        var touched: [(galleryID: String, cells: [Int])] = []
        for (at, (id, galleryID, hint)) in hints.enumerated() {
            let changed = editCells(of: galleryID) { list -> Int? in
                guard let index = hint < list.cells.count && list.cells[hint].id == id ? hint : list.index(of: id),
                    var image = list.cells[index].image, record(&image, at)
                else { return nil }
                list.cells[index].content = .image(image)
                return index
            }
            guard let index = changed ?? nil else { continue }
            if let place = touched.firstIndex(where: { $0.galleryID == galleryID }) {
                touched[place].cells.append(index)
            } else {
                touched.append((galleryID, [index]))
            }
        }
        publishRecords(touched, of: ids, onlyMeasures: true)
    }

    /// Saves the library as it is: what was recorded without a save of its own (`recordLikenesses`).
    public func save() { onSave(state) }

    /// An image whose kept original is `sha256` (the first in sidebar order), other than `excluded`.
    public func image(keeping sha256: String, excluding excluded: ImageID? = nil) -> (galleryID: String, id: ImageID)? {
        for shelf in shelves {
            for cell in shelf.cells.cells where cell.id != excluded && cell.image?.original?.sha256 == sha256 {
                return (shelf.entry.id, cell.id)
            }
        }
        return nil
    }

    /// Sets an image's note, one undo step; blank text removes it. Returns false when nothing changes.
    @discardableResult
    public func setNote(_ note: String?, of id: ImageID) -> Bool {
        let note = note.flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
        guard let (galleryID, index) = location(of: id), let image = cellList(galleryID)?.cells[index].image,
            image.note != note
        else { return false }
        let edit = LibraryEdit.images(galleryID: galleryID, .note(id: id, from: image.note, to: note))
        apply(edit)
        record(edit, name: tr("Edit Note"))
        commit(galleries: [galleryID], changed: [id])
        return true
    }

    /// Merges copies of pictures, one undo step for all (`DuplicateMerge`): each kept image takes in what its
    /// merged copies knew, and they leave their galleries. A merge whose images are gone, placeholders, or in
    /// an earlier merge of the list is left out. Returns the ids kept.
    @discardableResult
    public func merge(_ merges: [DuplicateMerge]) -> [ImageID] {
        var used = Set<ImageID>()
        var replacements: [String: (from: [GalleryImage], to: [GalleryImage])] = [:]
        var removals: [String: [Int: GalleryImage]] = [:]
        var kept: [ImageID] = []
        // Every image named found in one pass: Merge All names thousands.
        let wanted = Set(merges.flatMap { [$0.kept] + $0.merged })
        var found: [ImageID: (galleryID: String, imageIndex: Int, image: GalleryImage)] = [:]
        for shelf in shelves {
            var imageIndex = 0
            for cell in shelf.cells.cells {
                guard let image = cell.image else { continue }
                if wanted.contains(cell.id) { found[cell.id] = (shelf.entry.id, imageIndex, image) }
                imageIndex += 1
            }
        }
        for merge in merges {
            let ids = [merge.kept] + merge.merged
            guard Set(ids).count == ids.count, used.isDisjoint(with: ids), let keptCopy = found[merge.kept] else {
                continue
            }
            let (keptGallery, keptImage) = (keptCopy.galleryID, keptCopy.image)
            let others = merge.merged.compactMap { found[$0] }
            guard !others.isEmpty else { continue }
            used.formUnion(ids)
            kept.append(merge.kept)
            let merged = DuplicateMerge.merged(keptImage, with: others.map(\.image))
            replacements[keptGallery, default: ([], [])].from.append(keptImage)
            replacements[keptGallery, default: ([], [])].to.append(merged)
            for other in others { removals[other.galleryID, default: [:]][other.imageIndex] = other.image }
        }
        guard !kept.isEmpty else { return [] }
        // One edit a gallery: each gallery's copies leave at the places they had before any left.
        let replacementEdits = replacements.sorted { $0.key < $1.key }.map { galleryID, images in
            LibraryEdit.images(galleryID: galleryID, .replace(from: images.from, to: images.to))
        }
        let removalEdits = removals.sorted { $0.key < $1.key }.map { galleryID, images in
            LibraryEdit.images(
                galleryID: galleryID,
                .remove(images.sorted { $0.key < $1.key }.map { IndexedImage(index: $0.key, image: $0.value) }))
        }
        let edit = LibraryEdit.group(replacementEdits + removalEdits)
        apply(edit)
        let count = removals.values.reduce(0) { $0 + $1.count }
        record(edit, name: trPlural("Merge Duplicate", "Merge {count} Duplicates", count))
        commit(galleries: edit.galleryIDs, changed: Set(kept))
        return kept
    }

    // MARK: Tags

    /// Adds tags to images, one undo step however many; a tag an image has already (in any case) is
    /// not added twice, a blank one is refused. Returns false when nothing changes.
    @discardableResult
    public func addTags(_ names: [String], to ids: [ImageID]) -> Bool {
        let added = TagName.unique(names.compactMap(TagName.clean))
        guard !added.isEmpty else { return false }
        return changeTags(
            of: Set(ids), name: trPlural("Add Tag", "Add {count} Tags", added.count),
            { TagName.unique($0 + added) })
    }

    /// Removes tags (in any case) from images, one undo step. Returns false when nothing changes.
    @discardableResult
    public func removeTags(_ names: [String], from ids: [ImageID]) -> Bool {
        let removed = Set(names.compactMap(TagName.clean).map(TagName.key))
        guard !removed.isEmpty else { return false }
        return changeTags(
            of: Set(ids), name: trPlural("Remove Tag", "Remove {count} Tags", removed.count),
            { $0.filter { !removed.contains(TagName.key($0)) } })
    }

    /// Renames a tag and the tags nested in it on every image, one undo step: `colour` → `hue` makes
    /// `colour/red` `hue/red`. Onto a tag in use, the two merge: an image with both keeps one, and every
    /// image spells it as `new`. Returns false when nothing changes.
    @discardableResult
    public func renameTag(_ old: String, to new: String) -> Bool {
        guard let old = TagName.clean(old), let new = TagName.clean(new), old != new else { return false }
        let merging = !TagName.same(old, new) && isTagInUse(new)
        return changeTags(of: nil, name: merging ? tr("Merge Tags") : tr("Rename Tag")) { tags in
            TagName.unique(
                tags.map { TagName.renamed($0, from: old, to: new) ?? TagName.renamed($0, from: new, to: new) ?? $0 })
        }
    }

    /// Whether an image carries this tag, or one nested in it.
    public func isTagInUse(_ name: String) -> Bool {
        guard let name = TagName.clean(name) else { return false }
        let key = TagName.key(name)
        return tagsInUse().contains { TagName.key($0.name) == key }
    }

    /// Every tag in use with its parents, and how many images carry each or one nested in it, in
    /// alphabetical order: what completion offers and Manage Tags lists.
    public func tagsInUse() -> [TagUse] {
        var uses: [String: TagUse] = [:]
        for index in shelves.indices {
            if shelves[index].tagUses == nil {
                shelves[index].tagUses = Self.tagUses(shelves[index].cells.cells.lazy.compactMap(\.image))
            }
            for (key, use) in shelves[index].tagUses! {
                uses[key, default: TagUse(name: use.name, count: 0)].count += use.count
            }
        }
        return Self.sorted(uses)
    }

    /// The tags in use among a gallery's cells by key, counted on any thread, a gallery at a time: a library's worth
    /// would hold a worker as long as a search takes many times over. `tagsInUse(merging:)` adds them up.
    public nonisolated static func tagUses(among cells: [GalleryCell]) -> [String: TagUse] {
        tagUses(cells.lazy.compactMap(\.image))
    }

    /// The tags in use in galleries counted one by one (`tagUses(among:)`), added up and sorted.
    public nonisolated static func tagsInUse(merging galleries: [[String: TagUse]]) -> [TagUse] {
        var uses: [String: TagUse] = [:]
        for gallery in galleries {
            for (key, use) in gallery { uses[key, default: TagUse(name: use.name, count: 0)].count += use.count }
        }
        return sorted(uses)
    }

    /// Which of these ids are images of the library now, in one pass (a selection of thousands stays quick).
    public func imageIDs(among ids: [ImageID]) -> [ImageID] { ids.filter { imageGallery[$0] != nil } }

    /// The tags some images carry (their parents left out), and on how many of them each is.
    public func tags(of ids: [ImageID]) -> [TagUse] {
        let wanted = Set(ids)
        let galleries = Set(wanted.compactMap { imageGallery[$0] })
        return Self.tagCounts(
            shelves.lazy.filter { galleries.contains($0.entry.id) }.flatMap(\.cells.cells)
                .filter { wanted.contains($0.id) }.compactMap(\.image),
            withParents: false)
    }

    private nonisolated static func tagCounts<Images: Sequence<GalleryImage>>(
        _ images: Images, withParents: Bool = true
    ) -> [TagUse] { sorted(tagUses(images, withParents: withParents)) }

    /// The tags of these images by key, each with the first spelling found and on how many images it is.
    private nonisolated static func tagUses<Images: Sequence<GalleryImage>>(
        _ images: Images, withParents: Bool = true
    ) -> [String: TagUse] {
        var uses: [String: TagUse] = [:]
        // Each distinct tag's names and keys worked out once: lowercasing each tag of each image took most of the time.
        var namesOfTag: [String: [(name: String, key: String)]] = [:]
        // A set, not a list: an image of many tags looked each one up among those before it.
        var counted: Set<String> = []
        for image in images {
            counted.removeAll(keepingCapacity: true)
            for tag in image.tags {
                let names =
                    namesOfTag[tag]
                    ?? {
                        let names = (withParents ? TagName.withParents(tag) : [tag]).map { ($0, TagName.key($0)) }
                        namesOfTag[tag] = names
                        return names
                    }()
                for (name, key) in names where counted.insert(key).inserted {
                    uses[key, default: TagUse(name: name, count: 0)].count += 1
                }
            }
        }
        return uses
    }

    private nonisolated static func sorted(_ uses: [String: TagUse]) -> [TagUse] {
        // One sort key per tag, not a collation per comparison: ten thousand tags sort at once.
        return uses.values.map { (TagName.sortKey($0.name), $0) }.sorted {
            ($0.0, $0.1.name) < ($1.0, $1.1.name)
        }.map(\.1)
    }

    /// Applies `transform` to the tags of `ids` (nil: every image) as one step named `name`.
    private func changeTags(of ids: Set<ImageID>?, name: String, _ transform: ([String]) -> [String]) -> Bool {
        var edits: [LibraryEdit] = []
        let galleries = ids.map { Set($0.compactMap { imageGallery[$0] }) }
        for shelf in shelves where galleries?.contains(shelf.entry.id) ?? true {
            var changes: [TagChange] = []
            for cell in shelf.cells.cells {
                guard ids?.contains(cell.id) ?? true, let image = cell.image else { continue }
                let tags = transform(image.tags)
                if tags != image.tags { changes.append(TagChange(id: image.id, from: image.tags, to: tags)) }
            }
            if !changes.isEmpty { edits.append(.images(galleryID: shelf.entry.id, .tags(changes))) }
        }
        guard !edits.isEmpty else { return false }
        let edit = edits.count == 1 ? edits[0] : .group(edits)
        apply(edit)
        record(edit, name: name)
        commit(galleries: edit.galleryIDs, changed: edit.imagesChanged)
        return true
    }

    // MARK: Editing galleries

    /// A new empty gallery at `index` (nil: at the end), named `name` or "New Gallery", "New Gallery 2", …
    @discardableResult
    public func createGallery(named name: String? = nil, at index: Int? = nil) -> String {
        let gallery = Gallery(name: name.flatMap(Self.cleanName) ?? uniqueName(tr("New Gallery")))
        let position = min(max(index ?? shelves.count, 0), shelves.count)
        let edit = LibraryEdit.createGallery(gallery, index: position)
        apply(edit)
        record(edit, name: tr("New Gallery"))
        commitGalleries()
        return gallery.id
    }

    /// Renames a gallery; a blank name, or the same name, changes nothing.
    @discardableResult
    public func renameGallery(_ id: String, to name: String) -> Bool {
        guard let old = gallery(id)?.name, let new = Self.cleanName(name), new != old else { return false }
        let edit = LibraryEdit.renameGallery(id: id, from: old, to: new)
        apply(edit)
        record(edit, name: tr("Rename Gallery"))
        commitGalleries()
        return true
    }

    /// Deletes a gallery with its images (undoable); the last one stays. Its placeholders are given up.
    @discardableResult
    public func deleteGallery(_ id: String) -> Bool {
        guard canDeleteGallery, let index = galleryIndex(id) else { return false }
        let edit = LibraryEdit.deleteGallery(shelves[index].saved, index: index)
        apply(edit)
        record(edit, name: tr("Delete Gallery"))
        commitGalleries()
        return true
    }

    /// Moves a gallery to `index` of the list.
    @discardableResult
    public func moveGallery(_ id: String, to index: Int) -> Bool {
        guard let from = galleryIndex(id) else { return false }
        let to = min(max(index, 0), shelves.count - 1)
        guard to != from else { return false }
        let edit = LibraryEdit.moveGallery(id: id, from: from, to: to)
        apply(edit)
        record(edit, name: tr("Move Gallery"))
        commitGalleries()
        return true
    }

    // MARK: Smart galleries

    public func smartGallery(_ id: String) -> SmartGallery? { smartGalleries.first { $0.id == id } }

    /// Keeps `query` as a smart gallery at the end of the list, named `name` or "Saved Search", "Saved Search 2"…
    @discardableResult
    public func saveSearch(_ query: SearchQuery, named name: String? = nil) -> String {
        let names = Set(smartGalleries.map(\.name))
        let base = name.flatMap(Self.cleanName) ?? tr("Saved Search")
        var unique = base
        var number = 1
        while names.contains(unique) {
            number += 1
            unique = "\(base) \(number)"
        }
        let smart = SmartGallery(name: unique, query: query)
        editSmartGalleries(tr("Save Search")) { $0.append(smart) }
        return smart.id
    }

    /// Renames a smart gallery; a blank name, or the same name, changes nothing.
    @discardableResult
    public func renameSmartGallery(_ id: String, to name: String) -> Bool {
        guard let new = Self.cleanName(name), let index = smartGalleries.firstIndex(where: { $0.id == id }),
            smartGalleries[index].name != new
        else { return false }
        return editSmartGalleries(tr("Rename Saved Search")) { $0[index].name = new }
    }

    @discardableResult
    public func deleteSmartGallery(_ id: String) -> Bool {
        guard let index = smartGalleries.firstIndex(where: { $0.id == id }) else { return false }
        return editSmartGalleries(tr("Delete Saved Search")) { $0.remove(at: index) }
    }

    /// Moves a smart gallery to `index` of their list.
    @discardableResult
    public func moveSmartGallery(_ id: String, to index: Int) -> Bool {
        guard let from = smartGalleries.firstIndex(where: { $0.id == id }) else { return false }
        let to = min(max(index, 0), smartGalleries.count - 1)
        guard to != from else { return false }
        return editSmartGalleries(tr("Move Saved Search")) { $0.insert($0.remove(at: from), at: to) }
    }

    /// One undo step over the list of smart galleries.
    @discardableResult
    private func editSmartGalleries(_ name: String, _ change: (inout [SmartGallery]) -> Void) -> Bool {
        var after = smartGalleries
        change(&after)
        guard after != smartGalleries else { return false }
        let edit = LibraryEdit.smartGalleries(from: smartGalleries, to: after)
        apply(edit)
        record(edit, name: name)
        commitGalleries()
        return true
    }

    /// Remembers which gallery the last active window shows, for the next launch. Showing the
    /// gallery the file already opens with writes nothing: looking never rewrites the file.
    public func noteShownGallery(_ id: String) {
        guard id != initialGalleryID, gallery(id) != nil else { return }
        shownGalleryID = id
        onSave(state)
    }

    /// Whether windows show the galleries sidebar (F9), remembered for the next launch.
    public var sidebarVisible: Bool {
        get { sidebarSetting ?? true }
        set {
            guard newValue != sidebarVisible else { return }
            sidebarSetting = newValue
            onSave(state)
        }
    }

    /// Whether every animation on screen plays (Play Animations), remembered for the next launch.
    public var playAnimations: Bool {
        get { playAnimationsSetting ?? false }
        set {
            guard newValue != playAnimations else { return }
            playAnimationsSetting = newValue
            onSave(state)
        }
    }

    private func uniqueName(_ base: String) -> String {
        let names = Set(shelves.map(\.entry.name))
        guard names.contains(base) else { return base }
        var number = 2
        while names.contains(numbered(base, number)) { number += 1 }
        return numbered(base, number)
    }

    /// "New Gallery 2": the number as the user's locale writes it.
    private func numbered(_ base: String, _ number: Int) -> String {
        // Translators: a gallery's name made unique by a number, as in "New Gallery 2".
        tr("{name} {number}", ["name": base, "number": Localization.number(number)])
    }

    private static func cleanName(_ name: String) -> String? {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
            .replacingOccurrences(of: "\\s+", with: " ", options: .regularExpression)
        return trimmed.isEmpty ? nil : trimmed
    }

    // MARK: Changes from elsewhere

    /// The file changed on disk (another copy of the app, a sync tool) and was merged: `merged`
    /// holds those changes on top of `ours`, the state this library had then. Changes made here
    /// since are kept, placeholders stay where they wait, and the history stays when what came in left
    /// alone everything its steps name (they replay places in those galleries and in the list of
    /// galleries), else starts afresh.
    public func adoptMerge(_ merged: GalleryState, over ours: GalleryState) {
        let current = state
        if current == ours, adoptImages(of: merged, over: current) { return }
        let (adopted, adoptedImageGallery) = GalleryState.merged(
            base: ours, theirs: merged, ours: current
        ).withUniqueIDsAndTheirGalleries()
        guard adopted != current else { return }
        install(adopted.galleries.map(Shelf.init), imageGallery: adoptedImageGallery, settings: adopted, over: current)
    }

    /// Takes in the rest of a library whose launch read its shown gallery first (`merged` on top of `ours`, as
    /// `adoptMerge` takes it), prepared on a worker: when the window is still as it saved `ours`, the prepared
    /// galleries replace the window's as they are, so that the GTK thread does nothing per image.
    public func adoptRest(_ merged: GalleryState, prepared: Prepared, over ours: GalleryState) {
        unreadCounts = [:]
        let current = state
        guard current == ours else { return adoptMerge(merged, over: ours) }
        install(prepared.shelves, imageGallery: prepared.imageGallery, settings: prepared.state, over: current)
    }

    /// Makes `adopted` the library's galleries (the window's placeholders kept where they were), and `settings`'s
    /// its settings; the history stays when the galleries its steps touch are as they were.
    private func install(
        _ adopted: [Shelf], imageGallery adoptedImageGallery: ImageGalleryTable, settings: GalleryState,
        over current: GalleryState
    ) {
        let steps = (history.undoStack + history.redoStack).map(\.edit)
        let listStays =
            !steps.contains(where: \.changesGalleryList)
            || adopted.map(\.entry.id) == current.galleries.map(\.id)
        let stepsStay =
            listStays
            && Set(steps.flatMap(\.galleryIDs)).allSatisfy { id in
                adopted.first { $0.entry.id == id }?.saved == current.galleries.first { $0.id == id }
            }
        var adoptedShelves = adopted
        for index in adoptedShelves.indices {
            let cells = cellList(adoptedShelves[index].entry.id)?.cells ?? []
            for (position, cell) in cells.enumerated() where cell.isPlaceholder {
                adoptedShelves[index].cells.cells.insert(
                    cell, at: min(position, adoptedShelves[index].cells.cells.count))
            }
        }
        let kept = Set(adoptedShelves.map(\.entry.id))
        let discarded = shelves.filter { !kept.contains($0.entry.id) }
            .flatMap { $0.cells.cells.filter(\.isPlaceholder).map(\.id) }
        for id in discarded { placeholderGallery[id] = nil }
        shelves = adoptedShelves
        imageGallery = adoptedImageGallery
        version = settings.version
        shownGalleryID = settings.shownGalleryID
        sidebarSetting = settings.sidebarVisible
        playAnimationsSetting = settings.playAnimations
        unknownFields = settings.unknownFields
        // Before the history starts afresh: a batch these complete records nothing that lasts.
        for id in discarded { leaveBatch(id) }
        if !stepsStay { history.clear() }
        if !discarded.isEmpty { publish(.placeholdersDiscarded(discarded)) }
        publish(.history)
        publish(.galleries)
        for shelf in shelves { publish(.cells(galleryID: shelf.entry.id)) }
        onSave(state)
    }

    /// Nothing was edited here since the merge was made, and only galleries' images came in (another computer's move,
    /// tag or note): `merged` is taken as it is, and only the galleries whose images differ are made again and told,
    /// so that such an edit costs its galleries, not the library. False, with nothing done, when more changed.
    private func adoptImages(of merged: GalleryState, over current: GalleryState) -> Bool {
        guard merged.galleries.count == current.galleries.count, merged.version == current.version,
            merged.shownGalleryID == current.shownGalleryID, merged.sidebarVisible == current.sidebarVisible,
            merged.playAnimations == current.playAnimations, merged.smartGalleries == current.smartGalleries,
            merged.unknownFields == current.unknownFields
        else { return false }
        var changed: [Int] = []
        for (index, (theirs, ours)) in zip(merged.galleries, current.galleries).enumerated() {
            guard theirs.id == ours.id, theirs.name == ours.name, theirs.unknownFields == ours.unknownFields else {
                return false
            }
            // Arrays shared with the state saved last compare at once.
            if theirs.images != ours.images { changed.append(index) }
        }
        guard !changed.isEmpty else { return true }
        // Each image in one gallery: none comes in that a gallery left as it is holds.
        let changedIDs = Set(changed.map { current.galleries[$0].id })
        var placed = Set<ImageID>()
        for index in changed {
            for image in merged.galleries[index].images {
                guard placed.insert(image.id).inserted, imageGallery[image.id].map(changedIDs.contains) ?? true else {
                    return false
                }
            }
        }
        for index in changed {
            for image in current.galleries[index].images where !placed.contains(image.id) {
                imageGallery[image.id] = nil
            }
        }
        for index in changed {
            let gallery = merged.galleries[index]
            for image in gallery.images { imageGallery[image.id] = gallery.id }
            var shelf = Shelf(gallery)
            for (position, cell) in shelves[index].cells.cells.enumerated() where cell.isPlaceholder {
                shelf.cells.cells.insert(cell, at: min(position, shelf.cells.cells.count))
            }
            shelves[index] = shelf
        }
        let steps = (history.undoStack + history.redoStack).map(\.edit)
        if steps.contains(where: { !changedIDs.isDisjoint(with: $0.galleryIDs) }) { history.clear() }
        publish(.history)
        for index in changed { publishCells(current.galleries[index].id, changed: nil) }
        onSave(state)
        return true
    }

    // MARK: Undo

    /// Undoes the latest step wherever it happened; returns the galleries it touched that still exist.
    @discardableResult
    public func undo() -> [String] {
        guard let edit = history.popUndo() else { return [] }
        return replay(edit.inverse)
    }

    @discardableResult
    public func redo() -> [String] {
        guard let edit = history.popRedo() else { return [] }
        return replay(edit)
    }

    private func replay(_ edit: LibraryEdit) -> [String] {
        apply(edit)
        publish(.history)
        let touched = edit.galleryIDs.filter { gallery($0) != nil }
        if edit.changesGalleryList {
            commitGalleries()
        } else {
            commit(galleries: touched, changed: edit.imagesChanged)
        }
        return touched
    }

    private func record(_ edit: LibraryEdit, name: String) {
        history.record(edit, name: name)
        publish(.history)
    }

    private func apply(_ edit: LibraryEdit) {
        switch edit {
        case .images(let galleryID, let imageEdit):
            guard editCells(of: galleryID, { $0.apply(imageEdit) }) != nil else { return }
            if case .insert(let entries) = imageEdit {
                for entry in entries { imageGallery[entry.image.id] = galleryID }
            } else if case .remove(let entries) = imageEdit {
                for entry in entries where imageGallery[entry.image.id] == galleryID {
                    imageGallery[entry.image.id] = nil
                }
            }
        case .createGallery(let gallery, let index):
            guard self.gallery(gallery.id) == nil else { return }
            shelves.insert(Shelf(gallery), at: min(index, shelves.count))
            for image in gallery.images { imageGallery[image.id] = gallery.id }
        case .deleteGallery(let gallery, _):
            guard let index = galleryIndex(gallery.id) else { return }
            let cells = shelves.remove(at: index).cells.cells
            for cell in cells where !cell.isPlaceholder { imageGallery[cell.id] = nil }
            let placeholders = cells.filter(\.isPlaceholder).map(\.id)
            for id in placeholders {
                placeholderGallery[id] = nil
                leaveBatch(id)
            }
            if !placeholders.isEmpty { publish(.placeholdersDiscarded(placeholders)) }
        case .renameGallery(let id, _, let name):
            guard let index = galleryIndex(id) else { return }
            shelves[index].entry.name = name
        case .moveGallery(let id, _, let to):
            guard let index = galleryIndex(id) else { return }
            shelves.insert(shelves.remove(at: index), at: min(to, shelves.count))
        case .smartGalleries(_, let to):
            smartGalleries = to
        case .group(let edits):
            edits.forEach(apply)
        }
    }

    // MARK: Publishing

    /// Observers hear of the change (in which only `changed` images arrived or changed); the file is written.
    private func commit(galleries galleryIDs: [String], changed: Set<ImageID>?) {
        for galleryID in galleryIDs { publishCells(galleryID, changed: changed) }
        onSave(state)
    }

    private func commitGalleries() {
        if let shown = shownGalleryID, gallery(shown) == nil { shownGalleryID = nil }
        publish(.galleries)
        onSave(state)
    }
}

extension LibraryEdit {
    /// The images this edit brings or changes (not those it moves or takes away).
    var imagesChanged: Set<ImageID> {
        switch self {
        case .images(_, let edit):
            switch edit {
            case .move, .restoreMove, .remove: []
            case .insert(let entries): Set(entries.map(\.image.id))
            case .note(let id, _, _): [id]
            case .tags(let changes): Set(changes.map(\.id))
            case .replace(_, let images): Set(images.map(\.id))
            }
        case .createGallery(let gallery, _): Set(gallery.images.map(\.id))
        case .deleteGallery, .renameGallery, .moveGallery, .smartGalleries: []
        case .group(let edits): edits.reduce(into: []) { $0.formUnion($1.imagesChanged) }
        }
    }

    /// Whether galleries come, go, move or change names (not only their images).
    var changesGalleryList: Bool {
        switch self {
        case .images: false
        case .createGallery, .deleteGallery, .renameGallery, .moveGallery, .smartGalleries: true
        case .group(let edits): edits.contains(where: \.changesGalleryList)
        }
    }
}

extension GalleryState {
    /// The same state with every gallery and image id unique: a later duplicate (hand edits, sync
    /// tools) gets a fresh id, so no edit can mistake one image for another.
    public func withUniqueIDs() -> GalleryState { withUniqueIDsAndTheirGalleries().state }

    /// `withUniqueIDs()`, and the gallery that then holds each image (found in the same pass).
    fileprivate func withUniqueIDsAndTheirGalleries() -> (state: GalleryState, imageGallery: ImageGalleryTable) {
        var seenGalleries = Set<String>()
        var imageGallery = ImageGalleryTable(minimumCapacity: galleries.reduce(0) { $0 + $1.images.count })
        var result = self
        for galleryIndex in result.galleries.indices {
            if !seenGalleries.insert(result.galleries[galleryIndex].id).inserted {
                result.galleries[galleryIndex].id = RandomID.make()
                seenGalleries.insert(result.galleries[galleryIndex].id)
            }
            let galleryID = result.galleries[galleryIndex].id
            for imageIndex in result.galleries[galleryIndex].images.indices {
                let id = result.galleries[galleryIndex].images[imageIndex].id
                guard let first = imageGallery.updateValue(galleryID, forKey: id) else { continue }
                // The first image keeps the id; this later one gets a fresh one.
                imageGallery[id] = first
                let fresh = ImageID.make()
                result.galleries[galleryIndex].images[imageIndex].id = fresh
                imageGallery[fresh] = galleryID
            }
        }
        return (result, imageGallery)
    }
}
