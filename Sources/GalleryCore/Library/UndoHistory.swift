/// Undo and redo stacks of named edits; a new edit clears the redo stack.
@MainActor
public final class UndoHistory {
    public struct Entry: Sendable {
        public var edit: LibraryEdit
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

    func record(_ edit: LibraryEdit, name: String) {
        undoStack.append(Entry(edit: edit, name: name, serial: nextSerial))
        nextSerial += 1
        if undoStack.count > limit { undoStack.removeFirst(undoStack.count - limit) }
        redoStack.removeAll()
    }

    func popUndo() -> LibraryEdit? {
        guard let entry = undoStack.popLast() else { return nil }
        redoStack.append(entry)
        return entry.edit
    }

    func popRedo() -> LibraryEdit? {
        guard let entry = redoStack.popLast() else { return nil }
        undoStack.append(entry)
        return entry.edit
    }

    /// Forgets every step (the document was replaced by one merged from elsewhere).
    func clear() {
        undoStack.removeAll()
        redoStack.removeAll()
    }
}
