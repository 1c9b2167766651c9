/// An image and where it stood, so that a deletion can be undone in place.
public struct IndexedImage: Hashable, Sendable {
    public var index: Int
    public var image: GalleryImage
}

/// One undoable change of a gallery, described by ids so that it stays meaningful while
/// placeholders come and go around it. Indices count images only, never placeholders.
public enum GalleryEdit: Hashable, Sendable {
    /// `ids` (in order) were at `originalIndices` and now start at `destination`.
    case move(ids: [ImageID], originalIndices: [Int], destination: Int)
    /// The inverse of a move: each id goes back to its original index.
    case restoreMove(ids: [ImageID], originalIndices: [Int])
    case insert([IndexedImage])
    case remove([IndexedImage])

    public var inverse: GalleryEdit {
        switch self {
        case .move(let ids, let originalIndices, _): .restoreMove(ids: ids, originalIndices: originalIndices)
        case .restoreMove(let ids, let originalIndices):
            // Not recorded in the history, but keep the algebra total.
            .move(ids: ids, originalIndices: originalIndices, destination: originalIndices.first ?? 0)
        case .insert(let entries): .remove(entries)
        case .remove(let entries): .insert(entries)
        }
    }
}

/// Undo and redo stacks of named edits; a new edit clears the redo stack.
public final class UndoHistory {
    public struct Entry: Sendable {
        public var edit: GalleryEdit
        public var name: String
        /// Identifies this step for good, so an offer to undo it (a toast) can tell it is still the latest.
        public var serial: Int
    }

    public private(set) var undoStack: [Entry] = []
    public private(set) var redoStack: [Entry] = []
    public let limit: Int
    private var nextSerial = 1

    public init(limit: Int = 200) { self.limit = limit }

    public var canUndo: Bool { !undoStack.isEmpty }
    public var canRedo: Bool { !redoStack.isEmpty }
    public var undoName: String? { undoStack.last?.name }
    /// The step Ctrl+Z would undo now.
    public var latestSerial: Int? { undoStack.last?.serial }
    public var redoName: String? { redoStack.last?.name }

    func record(_ edit: GalleryEdit, name: String) {
        undoStack.append(Entry(edit: edit, name: name, serial: nextSerial))
        nextSerial += 1
        if undoStack.count > limit { undoStack.removeFirst(undoStack.count - limit) }
        redoStack.removeAll()
    }

    func popUndo() -> GalleryEdit? {
        guard let entry = undoStack.popLast() else { return nil }
        redoStack.append(entry)
        return entry.edit
    }

    func popRedo() -> GalleryEdit? {
        guard let entry = redoStack.popLast() else { return nil }
        undoStack.append(entry)
        return entry.edit
    }
}
