import Foundation

/// A cell of the shown gallery: an image, or a placeholder for one that is still downloading.
public struct GalleryCell: Hashable, Sendable {
    public enum Content: Hashable, Sendable {
        case image(GalleryImage)
        /// `progress` is the fraction downloaded, nil while the size is unknown.
        case placeholder(label: String, progress: Double?)
    }

    public var id: ImageID
    public var content: Content

    public var image: GalleryImage? {
        if case .image(let image) = content { return image }
        return nil
    }

    public var isPlaceholder: Bool { image == nil }

    public var aspectRatio: Double { image?.displayAspectRatio ?? 1 }
}

/// Owns the galleries, the shown gallery's cells, the selection and the undo history. Plain Swift:
/// views call it and redraw when `onChange` fires; `onSave` receives every state worth saving.
public final class GalleryController {
    public enum Change: Equatable {
        /// Cells were added, removed or reordered.
        case cells
        /// Only the selection changed.
        case selection
        /// A placeholder's progress changed.
        case progress(ImageID)
    }

    public enum SelectionMode { case replace, toggle, extend }

    public private(set) var state: GalleryState
    public private(set) var cells: [GalleryCell]
    public private(set) var selection: Set<ImageID> = []
    private var selectionAnchor: ImageID?
    public let history = UndoHistory()

    public var onChange: (Change) -> Void = { _ in }
    public var onSave: (GalleryState) -> Void = { _ in }

    public init(state: GalleryState) {
        self.state = state.galleries.isEmpty ? .initial : state
        cells = self.state.galleries[0].images.map { GalleryCell(id: $0.id, content: .image($0)) }
    }

    public func index(of id: ImageID) -> Int? { cells.firstIndex { $0.id == id } }

    /// The given ids in display order, those that exist.
    public func ordered(_ ids: Set<ImageID>) -> [ImageID] {
        cells.lazy.map(\.id).filter(ids.contains)
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
            guard let anchor = selectionAnchor, let from = index(of: anchor), let to = index(of: id) else {
                select(id, mode: .replace)
                return
            }
            selection = Set(cells[min(from, to)...max(from, to)].map(\.id))
        }
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

    // MARK: Editing

    /// Moves cells, keeping their relative order, so that they start at `insertionIndex` of the
    /// list *without* them. Returns false when nothing would change.
    @discardableResult
    public func move(_ ids: [ImageID], toInsertionIndex insertionIndex: Int) -> Bool {
        let moving = Set(ids)
        let original = cells.enumerated().filter { moving.contains($0.element.id) }.map { ($0.offset, $0.element.id) }
        guard !original.isEmpty else { return false }
        let destination = min(max(insertionIndex, 0), cells.count - original.count)
        var reordered = cells.filter { !moving.contains($0.id) }
        reordered.insert(contentsOf: original.map { cells[$0.0] }, at: destination)
        guard reordered.map(\.id) != cells.map(\.id) else { return false }
        // The history counts positions among images only, so that placeholders coming and going
        // before an undo or redo do not shift where the images land; placeholders are not recorded.
        let movedImages = original.filter { !cells[$0.0].isPlaceholder }
        let originalImageIndices = imageIndices(ofCells: movedImages.map(\.0))
        let imagesBefore = imageIDs
        cells = reordered
        guard imageIDs != imagesBefore, let first = movedImages.first,
              let firstIndex = index(of: first.1) else {
            onChange(.cells)  // only placeholders moved: nothing to save or undo
            return true
        }
        history.record(.move(ids: movedImages.map(\.1), originalIndices: originalImageIndices,
                             destination: imageIndices(ofCells: [firstIndex])[0]),
                       name: movedImages.count == 1 ? "Move Image" : "Move \(movedImages.count) Images")
        commit()
        return true
    }

    /// Removes cells (a trash drop, the Delete key). Placeholders removed this way stop counting.
    @discardableResult
    public func remove(_ ids: Set<ImageID>) -> [GalleryCell] {
        let removed = cells.enumerated().filter { ids.contains($0.element.id) }
        guard !removed.isEmpty else { return [] }
        let removedImages = removed.filter { !$0.element.isPlaceholder }
        let images = zip(imageIndices(ofCells: removedImages.map(\.offset)), removedImages.compactMap(\.element.image)).map { ($0, $1) }
        cells.removeAll { ids.contains($0.id) }
        selection.subtract(ids)
        if !images.isEmpty {
            history.record(.remove(images.map { IndexedImage(index: $0.0, image: $0.1) }),
                           name: images.count == 1 ? "Delete Image" : "Delete \(images.count) Images")
        }
        commit()
        return removed.map(\.element)
    }

    // MARK: Placeholders

    /// A placeholder at `index` for an image that is on its way. It is never saved.
    public func insertPlaceholder(at index: Int, label: String) -> ImageID {
        let id = ImageID.make()
        cells.insert(GalleryCell(id: id, content: .placeholder(label: label, progress: nil)),
                     at: min(max(index, 0), cells.count))
        onChange(.cells)
        return id
    }

    public func updatePlaceholder(_ id: ImageID, progress: Double?) {
        guard let index = index(of: id), case .placeholder(let label, let old) = cells[index].content,
              old != progress else { return }
        cells[index].content = .placeholder(label: label, progress: progress)
        onChange(.progress(id))
    }

    /// Names a placeholder once what it waits for is known (the drop's data arrived).
    public func relabelPlaceholder(_ id: ImageID, label: String) {
        guard let index = index(of: id), case .placeholder(let old, let progress) = cells[index].content,
              old != label else { return }
        cells[index].content = .placeholder(label: label, progress: progress)
        onChange(.progress(id))
    }

    /// The image arrived: it takes the placeholder's place as it is now.
    public func fulfillPlaceholder(_ id: ImageID, with image: GalleryImage) {
        guard let index = index(of: id), cells[index].isPlaceholder else { return }
        var image = image
        image.id = id
        cells[index] = GalleryCell(id: id, content: .image(image))
        history.record(.insert([IndexedImage(index: imageIndices(ofCells: [index])[0], image: image)]), name: "Add Image")
        commit()
    }

    /// The download failed: the placeholder goes, nothing else changes.
    public func discardPlaceholder(_ id: ImageID) {
        guard let index = index(of: id), cells[index].isPlaceholder else { return }
        cells.remove(at: index)
        selection.remove(id)
        onChange(.cells)
    }

    /// Records a better aspect ratio once an image has been decoded (the file had none, or a wrong one).
    public func correctAspectRatio(of id: ImageID, to ratio: Double) {
        guard let index = index(of: id), var image = cells[index].image,
              ratio.isFinite, ratio > 0, abs(image.aspectRatio - ratio) > 0.005 else { return }
        image.aspectRatio = ratio
        cells[index].content = .image(image)
        commit()
    }

    // MARK: Undo

    public func undo() {
        guard let edit = history.popUndo() else { return }
        apply(edit.inverse)
        commit()
    }

    public func redo() {
        guard let edit = history.popRedo() else { return }
        apply(edit)
        commit()
    }

    private func apply(_ edit: GalleryEdit) {
        switch edit {
        case .move(let ids, _, let destination):
            let moving = Set(ids)
            let byID = Dictionary(cells.filter { moving.contains($0.id) }.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            cells.removeAll { moving.contains($0.id) }
            cells.insert(contentsOf: ids.compactMap { byID[$0] }, at: cellIndex(forImageIndex: destination))
        case .restoreMove(let ids, let originalIndices):
            let moving = Set(ids)
            let byID = Dictionary(cells.filter { moving.contains($0.id) }.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            // Pair before dropping ids that are gone, so the rest keep their own indices.
            let moved = zip(ids, originalIndices).compactMap { id, index in byID[id].map { (index, $0) } }
            cells = Self.merge(moved, into: cells.filter { !moving.contains($0.id) })
        case .insert(let entries):
            let present = Set(cells.map(\.id))
            let missing = entries.filter { !present.contains($0.image.id) }
                .map { ($0.index, GalleryCell(id: $0.image.id, content: .image($0.image))) }
            cells = Self.merge(missing, into: cells)
        case .remove(let entries):
            let ids = Set(entries.map(\.image.id))
            cells.removeAll { ids.contains($0.id) }
            selection.subtract(ids)
        }
    }

    /// The ids of the images (not placeholders), in order: what the saved order is made of.
    private var imageIDs: [ImageID] { cells.lazy.filter { !$0.isPlaceholder }.map(\.id) }

    /// For cells at ascending `cellIndices`, how many images (not placeholders) come before each; one pass.
    private func imageIndices(ofCells cellIndices: [Int]) -> [Int] {
        var result: [Int] = []
        result.reserveCapacity(cellIndices.count)
        var images = 0
        var next = 0
        for (index, cell) in cells.enumerated() where next < cellIndices.count {
            if index == cellIndices[next] {
                result.append(images)
                next += 1
            }
            if !cell.isPlaceholder { images += 1 }
        }
        return result
    }

    /// Where an image must go in `cells` to be image number `imageIndex`: just before the image
    /// now at that position, or at the end.
    private func cellIndex(forImageIndex imageIndex: Int) -> Int {
        var seen = 0
        for (index, cell) in cells.enumerated() where !cell.isPlaceholder {
            if seen >= imageIndex { return index }
            seen += 1
        }
        return cells.count
    }

    /// Puts each cell where it becomes image number `imageIndex` of the result, in one pass: the
    /// same as inserting them one by one in ascending order, without the quadratic cost.
    static func merge(_ items: [(imageIndex: Int, cell: GalleryCell)], into base: [GalleryCell]) -> [GalleryCell] {
        let pending = items.sorted { $0.imageIndex < $1.imageIndex }
        var result: [GalleryCell] = []
        result.reserveCapacity(base.count + pending.count)
        var next = 0
        var images = 0
        for cell in base {
            if !cell.isPlaceholder {
                while next < pending.count && pending[next].imageIndex <= images {
                    result.append(pending[next].cell)
                    images += 1
                    next += 1
                }
                images += 1
            }
            result.append(cell)
        }
        result.append(contentsOf: pending[next...].map(\.cell))
        return result
    }

    /// Publishes a change of the saved cells: the state follows them, views redraw, the file is written.
    private func commit() {
        state.galleries[0].images = cells.compactMap(\.image)
        onChange(.cells)
        onSave(state)
    }
}
