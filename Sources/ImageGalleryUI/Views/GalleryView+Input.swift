import Foundation
import GalleryCore
import GtkKit

/// Pointer and keyboard input: selection, focus, zoom, keyboard reordering.
extension GalleryView {
    func installPointerHandlers() {
        canvas.onButtonPress { [weak self] event in self?.buttonPressed(event) ?? false }
        canvas.onButtonRelease { [weak self] event in self?.buttonReleased(event) ?? false }
        canvas.onMotion { [weak self] event in self?.pointerMoved(event) ?? false }
        canvas.onPointerLeave { [weak self] in self?.hover(nil) }
        canvas.onScroll { [weak self] event in
            guard let self, event.modifiers.contains(.control) else { return false }
            switch event.direction {
            case .up: zoom(by: 1.15)
            case .down: zoom(by: 1 / 1.15)
            case .smooth(let dy) where dy != 0: zoom(by: pow(1.15, -dy))
            default: return false
            }
            return true
        }
    }

    private func buttonPressed(_ event: ButtonEvent) -> Bool {
        if event.button == 3 { return secondaryClicked(event) }
        guard event.button == 1 else { return false }
        let y = contentY(fromWidgetY: event.y)
        if event.isDoubleClick {
            // The second press already began as a press (GDK sends both): the cell opens on release,
            // unless it becomes a drag (a click, then at once a drag, is a drag).
            if let press = drag.pendingPress, let index = cellIndex(atX: event.x, y: y),
                shownCells[index].id == press.id
            {
                drag.pendingPress?.activatesOnRelease = true
            }
            return true
        }
        canvas.grabFocus()
        guard let index = cellIndex(atX: event.x, y: y) else {
            drag.pendingPress = nil
            if !event.modifiers.contains(.control) && !event.modifiers.contains(.shift) { session.clearSelection() }
            return true
        }
        let id = shownCells[index].id
        let wasSelected = session.selection.contains(id)
        if event.modifiers.contains(.shift) {
            session.select(id, mode: .extend)
        } else if event.modifiers.contains(.control) {
            session.select(id, mode: .toggle)
        } else if !wasSelected {
            session.select(id, mode: .replace)
        }
        setFocus(id, scrollTo: false)
        drag.pendingPress = PendingPress(
            id: id, x: event.x, y: y,
            narrowOnRelease: wasSelected && event.modifiers.isEmpty)
        return true
    }

    private func buttonReleased(_ event: ButtonEvent) -> Bool {
        guard event.button == 1, let press = drag.pendingPress else { return false }
        drag.pendingPress = nil
        // A plain click on a selected cell (that did not become a drag) selects just it.
        if press.narrowOnRelease { session.select(press.id, mode: .replace) }
        if press.activatesOnRelease { activate(press.id) }
        return true
    }

    /// The cell under the pointer plays, when it is an animation.
    private func hover(_ id: ImageID?) {
        guard id != hoveredID else { return }
        hoveredID = id
        updateAnimations()
    }

    private func pointerMoved(_ event: MotionEvent) -> Bool {
        hover(cellIndex(atX: event.x, y: contentY(fromWidgetY: event.y)).map { shownCells[$0].id })
        guard let press = drag.pendingPress, event.buttonHeld else { return false }
        guard canvas.dragThresholdPassed(from: (press.x, press.y), to: (event.x, contentY(fromWidgetY: event.y))) else {
            return true
        }
        drag.pendingPress = nil
        if !session.selection.contains(press.id) { session.select(press.id, mode: .replace) }
        beginReorderDrag(from: press)
        return true
    }

    // MARK: Keyboard

    func installKeyHandlers() {
        canvas.onKeyPress { [weak self] key in self?.keyPressed(key) ?? false }
    }

    private func keyPressed(_ key: KeyEvent) -> Bool {
        let moveModifier = key.modifiers.contains(.alt) || key.modifiers.isSuperset(of: [.control, .shift])
        switch key.keyName {
        case "Left", "Right", "Up", "Down":
            if moveModifier {
                moveSelection(key.keyName)
            } else {
                moveFocus(key.keyName, extend: key.modifiers.contains(.shift))
            }
            return true
        case "Home", "End":
            guard !shownCells.isEmpty else { return true }
            let id = shownCells[key.keyName == "Home" ? 0 : shownCells.count - 1].id
            session.select(id, mode: key.modifiers.contains(.shift) ? .extend : .replace)
            setFocus(id)
            return true
        case "Page_Up", "Page_Down":
            let page = visibleRect.height * 0.9
            scroller.scrollOffset += key.keyName == "Page_Up" ? -page : page
            return true
        case "Return", "KP_Enter":
            if let focusedID { activate(focusedID) }
            return true
        case "space":
            if let focusedID { session.select(focusedID, mode: .toggle) }
            return true
        case "a" where key.modifiers.contains(.control):
            session.selectAll()
            return true
        case "Escape":
            if session.isShowingResults { onEscapeFromResults() } else { session.clearSelection() }
            return true
        case "Delete", "KP_Delete":
            deleteSelection()
            return true
        case "c" where key.modifiers == [.control], "C" where key.modifiers == [.control]:
            onCopyRequested()
            return true
        case "x" where key.modifiers == [.control], "X" where key.modifiers == [.control]:
            onCutRequested()
            return true
        case "Menu":
            openMenuFromKeyboard()
            return true
        case "F10" where key.modifiers == [.shift]:
            openMenuFromKeyboard()
            return true
        default:
            // Typing in the gallery searches, as in Files.
            guard let character = key.character, !character.isWhitespace,
                key.modifiers.isDisjoint(with: [.control, .alt])
            else { return false }
            onTyped(character)
            return true
        }
    }

    /// The cell the keyboard acts on: the focus, else the first selected, else the first.
    private var keyboardAnchor: Int? {
        if let focusedID, let index = index(of: focusedID) { return index }
        if let first = session.ordered(session.selection).first { return index(of: first) }
        return shownCells.isEmpty ? nil : 0
    }

    private func moveFocus(_ direction: String, extend: Bool) {
        guard let current = keyboardAnchor else { return }
        let target = neighbour(of: current, direction)
        let id = shownCells[target].id
        session.select(id, mode: extend ? .extend : .replace)
        setFocus(id)
    }

    /// The cell left, right, above or below (nearest horizontally in the next row).
    private func neighbour(of index: Int, _ direction: String) -> Int {
        switch direction {
        case "Left": return max(index - 1, 0)
        case "Right": return min(index + 1, shownCells.count - 1)
        default:
            let frame = targetFrame(ofCellAt: index)
            let y = direction == "Up" ? frame.y - Self.spacing - 1 : frame.maxY + Self.spacing + 1
            guard y > 0, y < layout.contentHeight else { return index }
            let candidates = cellIndices(intersecting: LayoutRect(x: 0, y: y, width: laidOutWidthForInput, height: 1))
            return candidates.min {
                abs(targetFrame(ofCellAt: $0).midX - frame.midX) < abs(targetFrame(ofCellAt: $1).midX - frame.midX)
            } ?? index
        }
    }

    private var laidOutWidthForInput: Double { Double(canvas.allocatedWidth) }

    /// Alt+arrows (or Ctrl+Shift+arrows) move the selected cells one step, as a drag would.
    private func moveSelection(_ direction: String) {
        var ids = session.ordered(session.selection)
        if ids.isEmpty, let focusedID { ids = [focusedID] }
        guard let first = ids.first, let firstIndex = index(of: first) else { return }
        let moving = Set(ids)
        let before = shownCells[..<firstIndex].filter { !moving.contains($0.id) }.count
        let target: Int
        switch direction {
        case "Left": target = before - 1
        case "Right": target = before + 1
        default:
            let neighbourIndex = neighbour(of: firstIndex, direction)
            target = shownCells[..<neighbourIndex].filter { !moving.contains($0.id) }.count
        }
        guard target >= 0 else { return }
        if session.move(ids, toInsertionIndex: target), let index = index(of: first) { scrollToCell(at: index) }
    }

    /// Double-click or Enter: a cell that could not be loaded tries again, one on the local network loads, an
    /// image opens.
    private func activate(_ id: ImageID) {
        if retryIfFailed(id) { return }
        guard let index = index(of: id), shownCells[index].image != nil else { return }
        onOpenRequested(id)
    }

    /// Tries a cell that could not be loaded again, or loads one that waited for the user's word (its address on the
    /// local network came from another computer); false when it had neither failed nor waited.
    func retryIfFailed(_ id: ImageID) -> Bool {
        if loader.awaitsApproval(id) {
            loader.approveLocalAddresses(of: [id])
            return true
        }
        guard loader.failure(of: id) != nil else { return false }
        loader.retry(id)
        relayout(animated: true)
        return true
    }

    // MARK: Context menu

    /// A right-click on a cell outside the selection makes it the selection first (as in Files);
    /// on a selected cell the menu is for the whole selection.
    private func secondaryClicked(_ event: ButtonEvent) -> Bool {
        canvas.grabFocus()
        drag.pendingPress = nil
        guard let index = cellIndex(atX: event.x, y: contentY(fromWidgetY: event.y)) else {
            onMenuRequested(nil, event.x, event.y)
            return true
        }
        let id = shownCells[index].id
        if !session.selection.contains(id) { session.select(id, mode: .replace) }
        setFocus(id, scrollTo: false)
        onMenuRequested(id, event.x, event.y)
        return true
    }

    /// Menu or Shift+F10: the menu for the selection, pointing at the focused cell (selected
    /// first when nothing is).
    private func openMenuFromKeyboard() {
        if session.selection.isEmpty, let focusedID { session.select(focusedID, mode: .replace) }
        let selected = session.ordered(session.selection)
        guard let id = focusedID.flatMap({ session.selection.contains($0) ? $0 : nil }) ?? selected.first,
            let index = index(of: id)
        else {
            onMenuRequested(nil, Self.spacing * 4, Self.spacing * 4)
            return
        }
        scrollToCell(at: index)
        let frame = targetFrame(ofCellAt: index)
        onMenuRequested(id, frame.midX, widgetY(fromContentY: frame.midY))
    }

    func deleteSelection() {
        let ids = session.ordered(session.selection)
        guard !ids.isEmpty else { return }
        onDeleteRequested(ids)
    }
}
