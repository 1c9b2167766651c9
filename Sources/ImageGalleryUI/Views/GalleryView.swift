import Foundation
import GLibKit
import GalleryCore
import GtkKit

/// The gallery a window shows: one canvas that lays out every cell in justified rows and paints
/// only those on screen. Input becomes session calls; the session's changes become repaints.
@MainActor
final class GalleryView {
    static let spacing = 8.0
    /// The room a gallery's name takes above its search results.
    static let headingHeight = 36.0
    static let zoomRange = 80.0...520.0

    let scroller = ScrolledWindow()
    let canvas = GalleryCanvas()
    let session: GallerySession
    let loader: ImageLoader
    /// The app's own drags of cells, shared by every window.
    let cellDrags: CellDrags

    /// The height a row aims for; Ctrl+scroll and Ctrl+plus/minus change it.
    var rowHeight: Double { session.rowHeight }
    private(set) var layout = JustifiedLayout(aspectRatios: [], width: 0, targetRowHeight: 220, spacing: spacing)
    /// The same cells without the room a drag opens: drops are aimed against it, so opening the
    /// room does not move the target under a still pointer.
    private(set) var restingLayout = JustifiedLayout(aspectRatios: [], width: 0, targetRowHeight: 220, spacing: spacing)
    /// The layout slot of the gap opened for a drag, as last laid out; the cells from it on take the next slot.
    private(set) var laidOutGapSlot: Int?
    /// The cells in the order last laid out: a change reaches the view once the library holds the new cells,
    /// and each cell slides from where the previous layout drew it.
    private var laidOutCells = ShownCells([])
    /// Each laid-out cell's index by id, made the first time a cell away from the screen is looked for:
    /// a launch, a scroll or a relayout never pays for an index of every cell.
    private var laidOutIndexByID: [ImageID: Int]?
    /// Where the view was scrolled to when the loader was last told, and which way it went since.
    private var lastReportedOffset = 0.0
    private var scrollingUp = false
    private var labelsByURL: [String: String] = [:]
    /// The pending load of the next screen (a GLib source id; 0 when none).
    private var prefetchTimer: UInt32 = 0
    private var laidOutWidth = 0.0
    /// The gallery and row height the layout is of (no gallery: search results).
    private var laidOutGallery: (id: String, rowHeight: Double)?
    /// Where the gallery was scrolled when search results took its place: where it returns when they go.
    private var offsetBeforeResults: Double?
    /// Counts layouts: the rest of a layout of search results, laid out when idle, stops once another replaces it.
    private var layoutRun = 0
    private var contentHeightQueued = false
    #if StallLog
        /// The words of the results last painted, for the search benchmark.
        var lastPaintedQuery: String?
        /// The results last painted, for the likeness benchmark.
        var lastPaintedResults: SearchResults?
    #endif

    /// Room opened at an insertion point while something is dragged over the gallery.
    var gap: (index: Int, aspectRatio: Double)? {
        didSet {
            if gap?.index != oldValue?.index || gap?.aspectRatio != oldValue?.aspectRatio { relayout(animated: true) }
        }
    }
    /// Cells being dragged out of their place: painted dimmed.
    var dimmed: Set<ImageID> = [] { didSet { canvas.queueDraw() } }
    /// The keyboard focus among the cells.
    var focusedID: ImageID? { session.focusedID }
    /// The shown gallery's cells, read from the library: every change to them lays them out again at once,
    /// so `layout` places these (only the relayout's animation still needs the previous order, `laidOutCells`).
    var shownCells: ShownCells { session.cells }
    /// Everything drag and drop keeps between events (see DragAndDrop/).
    var drag = DragState()
    /// Drops from other applications: their data on its way, then into the download pipeline.
    let externalDrops: ExternalDrops
    /// Delete key: the window removes them and offers Undo.
    var onDeleteRequested: ([ImageID]) -> Void = { _ in }
    /// The user asked for a menu (right-click, Menu key, Shift+F10) at (x, y) of the canvas: the
    /// cell menu for the selection, which `clicked` belongs to, or with nil the gallery's own menu.
    var onMenuRequested: (_ clicked: ImageID?, _ x: Double, _ y: Double) -> Void = { _, _, _ in }
    /// Ctrl+C and Ctrl+X on the gallery (not app-wide keys: a text field keeps its own).
    var onCopyRequested: () -> Void = {}
    var onCutRequested: () -> Void = {}
    /// Double-click or Enter on an image: the window opens it in its viewer.
    var onOpenRequested: (ImageID) -> Void = { _ in }
    /// A key that types a character, in the gallery: the window opens its search bar with it.
    var onTyped: (Character) -> Void = { _ in }
    /// Esc while search results show: the window closes its search.
    var onEscapeFromResults: () -> Void = {}
    /// Cells were dragged into place (a reorder, or from another window): the window offers Undo.
    var onDropped: (_ message: String) -> Void = { _ in }
    /// Called once, on the main loop's next turn after the first frame drawn.
    var onFirstFrame: (() -> Void)?
    /// Called once, when the pictures of the first screen drawn have all arrived or failed: background work that
    /// would compete with them for the cores waits for it.
    var onFirstScreenLoaded: (() -> Void)?
    /// Whether a frame was drawn (the first screen can be loaded only after).
    var hasDrawn = false

    private let animator = FrameAnimator()
    /// The animations playing in cells, and the cell under the pointer, which plays.
    let cellAnimations: CellAnimations
    var hoveredID: ImageID?
    /// Play Animations: every animated cell on screen plays, not only the hovered or focused one.
    var playsEveryAnimation = false {
        didSet { if playsEveryAnimation != oldValue { updateAnimations() } }
    }
    private var pinch: PinchGesture?
    private var rowHeightAtPinchStart = 220.0
    private var spinnerTick: UInt32?
    let spinnerSprites = SpinnerSprites()
    let roundedCorners = RoundedCorners()
    private var accessibilityRefreshQueued = false
    /// The timeout that refreshes the accessible cells after a scroll; 0 when none is due.
    private var scrollRefreshTimer: UInt32 = 0
    /// When the accessible cells were last refreshed (monotonic microseconds).
    private var lastAccessibilityRefresh = 0
    private var loaderObservation: Observation?
    /// The window is closing: its widgets are being destroyed and nothing here may touch them.
    private(set) var isDetached = false

    init(session: GallerySession, loader: ImageLoader, cellDrags: CellDrags, externalDrops: ExternalDrops) {
        self.session = session
        self.loader = loader
        self.cellDrags = cellDrags
        self.externalDrops = externalDrops
        cellAnimations = CellAnimations(pipeline: loader.pipeline)
        canvas.addStyleClass("gallery-canvas")
        canvas.accessibleName = tr("Gallery")
        canvas.enablePointerAndKeyEvents()
        canvas.setExpand(horizontal: true, vertical: true)
        scroller.add(canvas)
        scroller.setExpand(horizontal: true, vertical: true)

        canvas.onDraw { [weak self] context in self?.draw(context) }
        canvas.onSizeAllocate { [weak self] width, _ in self?.widthChanged(Double(width)) }
        scroller.onScrolled { [weak self] in self?.visibleAreaChanged() }
        canvas.setAccessibleCells(
            { [weak self] in self?.accessibleCells() ?? [] },
            frame: { [weak self] key in self?.accessibleFrame(ofKey: key) })
        loaderObservation = loader.observe { [weak self] id in self?.imageUpdated(id) }
        installPointerHandlers()
        installKeyHandlers()
        cellAnimations.onFrame = { [weak self] id in self?.repaintCell(id) }
        canvas.onFocusChange { [weak self] in
            self?.updateAnimations()
            self?.canvas.queueDraw()
        }
        // The viewer's page hides the gallery: its animations stop meanwhile.
        canvas.onMapChange { [weak self] in self?.updateAnimations() }
        let pinch = PinchGesture(on: canvas)
        pinch.onBegin { [weak self] in self.map { $0.rowHeightAtPinchStart = $0.rowHeight } }
        pinch.onScaleChanged { [weak self] scale in
            guard let self else { return }
            zoom(by: rowHeightAtPinchStart * scale / rowHeight)
        }
        self.pinch = pinch
    }

    /// The window is going: nothing of this view may run again (an idle accessibility refresh, a
    /// frame tick, a loader update) once its widgets are destroyed.
    func detach() {
        isDetached = true
        canvas.clearAccessibleCells()
        loaderObservation = nil
        loader.setVisible([], for: ObjectIdentifier(self))
        MainContext.cancel(prefetchTimer)
        prefetchTimer = 0
        MainContext.cancel(scrollRefreshTimer)
        scrollRefreshTimer = 0
        if let spinnerTick { canvas.removeTickCallback(spinnerTick) }
        spinnerTick = nil
        animator.stop(on: canvas)
        stopAutoscroll()
        cellAnimations.stopAll()
    }

    // MARK: Layout

    private func widthChanged(_ width: Double) {
        guard !isDetached, abs(width - laidOutWidth) >= 1 else { return }
        // GTK ignores size requests made while it allocates sizes: lay out again right after.
        MainContext.post { [weak self] in self?.relayout(animated: false) }
    }

    /// Lays the cells (and the drag gap) out again; `animated` slides cells from where they were. Search results
    /// are laid out down to two screens below `top` (where the view will be scrolled to, else where it is), the
    /// rest when idle or when asked for, so a keystroke's work on this thread is what is on screen.
    /// `unchangedBefore`: the gallery's cells before that index are those laid out last, and keep their rows.
    func relayout(animated: Bool, top: Double? = nil, unchangedBefore: Int = 0) {
        guard !isDetached else { return }
        let previous = animated ? currentFrames() : [:]
        let cells = session.cells
        let width = Double(canvas.allocatedWidth)
        let extendsLayout =
            unchangedBefore > 0 && gap == nil && laidOutGapSlot == nil && !session.isShowingResults
            && laidOutGallery?.id == session.galleryID && laidOutGallery?.rowHeight == rowHeight
            && width == laidOutWidth && layout.isComplete && layout.count == laidOutCells.count
            && unchangedBefore <= min(cells.count, laidOutCells.count)
        laidOutCells = cells
        laidOutIndexByID = nil
        laidOutWidth = width
        laidOutGallery = session.isShowingResults ? nil : (session.galleryID, rowHeight)
        layoutRun += 1
        if extendsLayout {
            // The resting layout shares the layout's rows: let go of them first, so they change in place.
            restingLayout = JustifiedLayout(aspectRatios: [], width: 0, targetRowHeight: 220, spacing: Self.spacing)
            layout.layOutAgain(from: unchangedBefore, aspectRatios: aspectRatios(of: cells[unchangedBefore...]))
            restingLayout = layout
        } else if session.isShowingResults {
            // Grouped by gallery, each under its name; no drag opens a gap among them.
            laidOutGapSlot = nil
            let sections = session.resultSections
            layout = JustifiedLayout(
                aspectRatios: [], width: laidOutWidth, targetRowHeight: rowHeight, spacing: Self.spacing,
                sectionStarts: sections.map(\.range.lowerBound), headingHeight: Self.headingHeight, count: cells.count)
            extendLayout(throughY: (top ?? scroller.scrollOffset) + scroller.pageSize * 3)
            restingLayout = layout
            layOutRestWhenIdle(run: layoutRun)
        } else {
            let resting = aspectRatios(of: cells[...])
            var ratios = resting
            laidOutGapSlot = gap.map { min($0.index, cells.count) }
            if let gap, let slot = laidOutGapSlot { ratios.insert(gap.aspectRatio, at: slot) }
            layout = JustifiedLayout(
                aspectRatios: ratios, width: laidOutWidth, targetRowHeight: rowHeight, spacing: Self.spacing)
            if gap == nil {
                restingLayout = layout
            } else if restingLayout.frames.count != cells.count || restingLayout.width != laidOutWidth {
                restingLayout = JustifiedLayout(
                    aspectRatios: resting, width: laidOutWidth, targetRowHeight: rowHeight, spacing: Self.spacing)
            }
        }
        canvas.setContentHeight(layout.contentHeight.rounded(.up))
        if animated && !previous.isEmpty {
            animator.start(from: previous, on: canvas)
        }
        canvas.queueDraw()
        reportVisibleCells()
        scheduleAccessibilityRefresh(scrolled: true)
    }

    /// Lays out the results' next cells until the rows reach `y`.
    private func extendLayout(throughY y: Double) {
        while !layout.isComplete && layout.laidOutHeight < y { extendLayout(by: 256) }
    }

    /// Lays out the results' next cells until the cell at `index` has its place.
    private func extendLayout(throughIndex index: Int) {
        while !layout.isComplete && layout.laidOutCount <= index {
            extendLayout(by: max(256, index + 1 - layout.givenCount))
        }
    }

    private func extendLayout(by count: Int) {
        let start = layout.givenCount
        layout.extend(with: aspectRatios(of: laidOutCells[start..<min(start + count, laidOutCells.count)]))
        queueContentHeight()
    }

    /// The results' rest, laid out a few milliseconds at a time between frames, until a new layout replaces it.
    private func layOutRestWhenIdle(run: Int) {
        guard !layout.isComplete else { return }
        MainContext.post { [weak self] in
            guard let self, !isDetached, run == layoutRun else { return }
            let deadline = MainContext.monotonicMicroseconds + 3000
            repeat { extendLayout(by: 1024) } while !layout.isComplete && MainContext.monotonicMicroseconds < deadline
            if layout.isComplete { restingLayout = layout }
            layOutRestWhenIdle(run: run)
        }
    }

    /// The content's height follows the layout as it grows, once per turn of the main loop (the layout may
    /// grow while GTK draws, when it may not be resized).
    private func queueContentHeight() {
        guard !contentHeightQueued else { return }
        contentHeightQueued = true
        MainContext.post { [weak self] in
            guard let self, !isDetached else { return }
            contentHeightQueued = false
            canvas.setContentHeight(layout.contentHeight.rounded(.up))
        }
    }

    /// Images that failed show as squares; the rest at their own ratio (looked up only when some failed).
    private func aspectRatios(of cells: Slice<ShownCells>) -> [Double] {
        guard loader.hasFailures else { return cells.map(\.aspectRatio) }
        return cells.map { loader.failure(of: $0.id) != nil ? 1 : $0.aspectRatio }
    }

    /// The layout slot of the cell at `index`: its own index, one further from the drag's gap on.
    func slot(ofCell index: Int) -> Int {
        guard let gap = laidOutGapSlot, index >= gap else { return index }
        return index + 1
    }

    var isAnimatingLayout: Bool { animator.isAnimating }

    /// The layout frame of the cell at `index`.
    func targetFrame(ofCellAt index: Int) -> LayoutRect {
        if index >= layout.laidOutCount { extendLayout(throughIndex: index) }
        return layout.frames[slot(ofCell: index)]
    }

    /// Where the cell is drawn now (mid-animation, between its old and new place).
    func displayedFrame(ofCellAt index: Int) -> LayoutRect {
        let target = targetFrame(ofCellAt: index)
        return animator.frame(for: shownCells[index].id, target: target)
    }

    /// Where the cells near the screen are drawn now: only they can be seen sliding.
    private func currentFrames() -> [ImageID: LayoutRect] {
        let visible = visibleRect
        let near = LayoutRect(x: 0, y: visible.y - visible.height, width: visible.width, height: visible.height * 3)
        var frames: [ImageID: LayoutRect] = [:]
        for index in cellIndices(intersecting: near) {
            let id = laidOutCells[index].id
            frames[id] = animator.frame(for: id, target: targetFrame(ofCellAt: index))
        }
        return frames
    }

    /// The part of the content inside the view. The layout speaks of the whole content; the canvas
    /// widget is only the view's size and shows the part from `scroller.scrollOffset` down.
    var visibleRect: LayoutRect {
        LayoutRect(x: 0, y: scroller.scrollOffset, width: laidOutWidth, height: scroller.pageSize)
    }

    /// A point of the canvas widget (an event, a drop) in content coordinates.
    func contentY(fromWidgetY y: Double) -> Double { y + scroller.scrollOffset }

    /// A content position as the canvas widget shows it now.
    func widgetY(fromContentY y: Double) -> Double { y - scroller.scrollOffset }

    /// Cell indices whose frames intersect `rect`.
    func cellIndices(intersecting rect: LayoutRect) -> [Int] {
        extendLayout(throughY: rect.maxY)
        let slots = layout.indices(intersecting: rect)
        guard !slots.isEmpty else { return [] }
        // Slots map to cells in order; the gap slot maps to none.
        let lower = firstCell(atOrAfterSlot: slots.lowerBound)
        let upper = firstCell(atOrAfterSlot: slots.upperBound)
        return Array(lower..<upper)
    }

    private func firstCell(atOrAfterSlot slot: Int) -> Int {
        guard let gap = laidOutGapSlot, slot > gap else { return min(slot, laidOutCells.count) }
        return min(slot - 1, laidOutCells.count)
    }

    /// The cell under a canvas point.
    func cellIndex(atX x: Double, y: Double) -> Int? {
        extendLayout(throughY: y)
        guard let slot = layout.index(at: x, y), slot != laidOutGapSlot else { return nil }
        let index = firstCell(atOrAfterSlot: slot)
        return index < laidOutCells.count ? index : nil
    }

    private func visibleAreaChanged() {
        guard !isDetached else { return }
        reportVisibleCells()
        scheduleAccessibilityRefresh()
    }

    /// Tells the loader what this view shows: work for what no view shows stops. Once the view
    /// has rested a moment, the next screen in the direction of the last scroll is loaded ahead,
    /// so the next Page Down finds its pictures ready; screens passed by while keys repeat are
    /// not decoded for nothing.
    private func reportVisibleCells() {
        let view = visibleRect
        if view.y != lastReportedOffset {
            scrollingUp = view.y < lastReportedOffset
            lastReportedOffset = view.y
        }
        let cells = shownCells
        loader.setVisible(Set(cellIndices(intersecting: view).map { cells[$0].id }), for: ObjectIdentifier(self))
        updateAnimations()
        MainContext.cancel(prefetchTimer)
        prefetchTimer = MainContext.after(milliseconds: 150) { [weak self] in
            self?.prefetchTimer = 0
            self?.prefetchNextScreen()
        }
    }

    /// Starts decoding the first screen as it will be laid out at `width` (the gallery's width when
    /// the window was last closed), while GTK still builds the window: the first frame then finds
    /// most pictures ready. A wrong guess costs those decodes, no more.
    func prefetchFirstScreen(width: Double, height: Double) {
        let cells = session.cells
        let layout = JustifiedLayout(
            aspectRatios: aspectRatios(of: cells[...]), width: width, targetRowHeight: rowHeight, spacing: Self.spacing)
        let scale = canvas.scaleFactor
        for index in layout.indices(intersecting: LayoutRect(x: 0, y: 0, width: width, height: height)) {
            guard let image = cells[index].image else { continue }
            loader.prefetch(image, cell: layout.frames[index], scale: scale, onScreen: true)
        }
    }

    private func prefetchNextScreen() {
        guard !isDetached else { return }
        let view = visibleRect
        let visible = cellIndices(intersecting: view)
        let nextScreen = LayoutRect(
            x: view.x, y: scrollingUp ? view.y - view.height : view.maxY, width: view.width,
            height: view.height)
        let ahead = cellIndices(intersecting: nextScreen).filter { !visible.contains($0) }
        let cells = shownCells
        loader.setVisible(Set((visible + ahead).map { cells[$0].id }), for: ObjectIdentifier(self))
        let scale = canvas.scaleFactor
        for index in ahead {
            guard let image = cells[index].image else { continue }
            loader.prefetch(image, cell: targetFrame(ofCellAt: index), scale: scale)
        }
    }

    // MARK: Zoom

    func zoom(by factor: Double) {
        let newHeight = min(max(rowHeight * factor, Self.zoomRange.lowerBound), Self.zoomRange.upperBound)
        guard newHeight != rowHeight else { return }
        // Keep the first visible cell in view across the change.
        let anchor = cellIndices(intersecting: visibleRect).first
        session.rowHeight = newHeight
        relayout(animated: false)
        if let anchor { scroller.scrollOffset = targetFrame(ofCellAt: anchor).y - Self.spacing }
    }

    // MARK: Changes from the model

    func sessionChanged(_ change: GallerySession.Change) {
        switch change {
        case .cells:
            if session.library.onlyRecordsChanged && laidOutCells.count == session.cells.count {
                // No cell moved or changed size: the cells are drawn again (an animated badge) where they stand.
                laidOutCells = session.cells
                canvas.queueDraw()
                reportVisibleCells()
            } else {
                relayout(animated: true, unchangedBefore: session.library.firstCellChanged)
            }
        case .shownGallery:
            gap = nil
            dimmed = []
            offsetBeforeResults = nil
            relayout(animated: false)
            scroller.scrollOffset = 0
        case .progress(let id):
            // Only the placeholder's content changed: its place in the layout is the same.
            if let index = index(of: id) {
                // A hundred downloads report progress many times a second: each repaints its own cell.
                let frame = displayedFrame(ofCellAt: index)
                canvas.queueDraw(
                    x: frame.x, y: frame.y - scroller.scrollOffset, width: frame.width, height: frame.height)
            } else {
                canvas.queueDraw()
            }
            scheduleAccessibilityRefresh()
        case .selection:
            canvas.queueDraw()
            scheduleAccessibilityRefresh()
        case .searchResults:
            gap = nil
            dimmed = []
            if session.isShowingResults {
                if offsetBeforeResults == nil { offsetBeforeResults = scroller.scrollOffset }
                relayout(animated: false, top: 0)
                scroller.scrollOffset = 0
            } else {
                relayout(animated: false)
                scroller.scrollOffset = offsetBeforeResults ?? 0
                offsetBeforeResults = nil
            }
        case .galleries:
            // Among results, a gallery renamed renames its heading, one deleted takes its images away.
            if session.isShowingResults { relayout(animated: false) }
        case .history:
            break
        }
    }

    private func imageUpdated(_ id: ImageID) {
        checkFirstScreenLoaded()
        updateAnimations()
        guard let index = index(of: id) else { return }
        // A failure turns the cell square; everything else only repaints.
        let frame = targetFrame(ofCellAt: index)
        if loader.failure(of: id) != nil && abs(frame.width - frame.height) > 0.5 {
            relayout(animated: true)
        } else {
            canvas.queueDraw()
            scheduleAccessibilityRefresh()
        }
    }

    /// Calls `onFirstScreenLoaded` once a frame was drawn and no cell on screen is still loading.
    func checkFirstScreenLoaded() {
        guard let loaded = onFirstScreenLoaded, hasDrawn, !isDetached else { return }
        let cells = shownCells
        let loading = cellIndices(intersecting: visibleRect).contains { index in
            guard let image = cells[index].image, case .loading = loader.peekState(of: image.id) else { return false }
            return true
        }
        guard !loading else { return }
        onFirstScreenLoaded = nil
        MainContext.post { loaded() }
    }

    // MARK: Keyboard focus

    func setFocus(_ id: ImageID?, scrollTo: Bool = true) {
        session.focusedID = id
        if scrollTo, let id, let index = index(of: id) { scrollToCell(at: index) }
        canvas.queueDraw()
        updateAnimations()
    }

    // MARK: Animations

    /// Plays the animated cells on screen that should: under the pointer, with the keyboard focus, or all of them
    /// (Play Animations); the others stop and let their frames go.
    func updateAnimations() {
        guard !isDetached else { return }
        let cells = shownCells
        let scale = canvas.scaleFactor
        let focused = canvas.hasFocus ? focusedID : nil
        var wanted: [ImageID: CellAnimations.Wanted] = [:]
        if canvas.isMapped && (playsEveryAnimation || hoveredID != nil || focused != nil) {
            for index in cellIndices(intersecting: visibleRect) {
                // Once its still picture shows: it comes first, and shows until the first frame is ready.
                guard let image = cells[index].image, image.animation?.isAnimated == true,
                    playsEveryAnimation || image.id == hoveredID || image.id == focused,
                    case .ready = loader.peekState(of: image.id)
                else { continue }
                let frame = targetFrame(ofCellAt: index)
                wanted[image.id] = CellAnimations.Wanted(
                    image: image, width: Int((frame.width * Double(scale)).rounded()),
                    height: Int((frame.height * Double(scale)).rounded()))
            }
        }
        cellAnimations.play(wanted, scale: scale)
    }

    /// Repaints one cell where it is drawn now: a frame of its animation came.
    private func repaintCell(_ id: ImageID) {
        guard !isDetached, let index = index(of: id) else { return }
        let frame = displayedFrame(ofCellAt: index)
        canvas.queueDraw(x: frame.x, y: frame.y - scroller.scrollOffset, width: frame.width, height: frame.height)
    }

    func scrollToCell(at index: Int) {
        let frame = targetFrame(ofCellAt: index)
        let visible = visibleRect
        if frame.y < visible.y {
            scroller.scrollOffset = frame.y - Self.spacing
        } else if frame.maxY > visible.maxY {
            scroller.scrollOffset = frame.maxY + Self.spacing - visible.height
        }
    }

    /// Where a cell was laid out: looked for among the cells near the screen first (the pictures that
    /// arrive, the keyboard's focus), then in an index of every cell made once per layout.
    func index(of id: ImageID) -> Int? {
        if let laidOutIndexByID { return laidOutIndexByID[id] }
        let view = visibleRect
        let near = LayoutRect(x: 0, y: view.y - view.height, width: view.width, height: view.height * 3)
        if let index = cellIndices(intersecting: near).first(where: { laidOutCells[$0].id == id }) { return index }
        let byID = Dictionary(
            laidOutCells.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { first, _ in first })
        laidOutIndexByID = byID
        return byID[id]
    }

    // MARK: Spinner animation

    /// Keeps a frame-clock tick running while loading cells are on screen, for the spinners: each
    /// frame repaints the spinners' squares alone, not their cells or the gallery.
    func ensureSpinnerTicking() {
        guard spinnerTick == nil else { return }
        spinnerTick = canvas.addTickCallback { [weak self] _ in
            guard let self else { return false }
            let cells = shownCells
            let spinning = cellIndices(intersecting: visibleRect).filter { self.showsSpinner(cells[$0]) }
            let offset = scroller.scrollOffset
            for index in spinning {
                guard let box = spinnerBox(of: cells[index], in: displayedFrame(ofCellAt: index))?.box else { continue }
                canvas.queueDraw(x: box.x, y: box.y - offset, width: box.width, height: box.height)
            }
            if spinning.isEmpty { spinnerTick = nil }
            return !spinning.isEmpty
        }
    }

    private func showsSpinner(_ cell: GalleryCell) -> Bool {
        switch cell.content {
        case .image(let image):
            if case .loading = loader.peekState(of: image.id) { return true }
            return false
        case .placeholder(_, let progress):
            return progress == nil
        }
    }

    // MARK: Accessibility

    /// Refreshes what assistive technologies read once the main loop is idle. While the view
    /// scrolls (Page Up repeating), at most every 150 ms: each screen passed by would otherwise
    /// replace every cell's accessible object. A change to the cells themselves is told at once.
    private func scheduleAccessibilityRefresh(scrolled: Bool = false) {
        guard !isDetached else { return }
        if scrolled {
            guard scrollRefreshTimer == 0 else { return }
            let sinceLast = (MainContext.monotonicMicroseconds - lastAccessibilityRefresh) / 1000
            scrollRefreshTimer = MainContext.after(milliseconds: UInt32(max(0, 150 - sinceLast))) { [weak self] in
                self?.scrollRefreshTimer = 0
                self?.refreshAccessibleCells()
            }
        } else {
            guard !accessibilityRefreshQueued else { return }
            accessibilityRefreshQueued = true
            MainContext.post { [weak self] in
                self?.accessibilityRefreshQueued = false
                self?.refreshAccessibleCells()
            }
        }
    }

    private func refreshAccessibleCells() {
        guard !isDetached else { return }
        lastAccessibilityRefresh = MainContext.monotonicMicroseconds
        canvas.accessibleCellsChanged(accessibleCells())
    }

    /// An image's label by its address: parsing the URL for it every time the cells' names are
    /// refreshed (each image that arrives) cost more than the rest of the refresh.
    private func label(of image: GalleryImage) -> String {
        if let label = labelsByURL[image.url] { return label }
        let label = image.label
        labelsByURL[image.url] = label
        return label
    }

    /// The cells on screen, in reading order, as assistive technologies see them.

    private func accessibleCells() -> [AccessibleCell] {
        let visible = visibleRect
        let cells = shownCells
        return cellIndices(intersecting: visible).map { index in
            let cell = cells[index]
            let frame = targetFrame(ofCellAt: index)
            let name: String
            let description: String
            switch cell.content {
            case .image(let image):
                description = image.url
                // Translators: the names of cells, read by screen readers.
                let label = label(of: image)
                if let failure = loader.failure(of: image.id) {
                    name = tr("{image}, error: {reason}", ["image": label, "reason": failure])
                } else if case .loading = loader.peekState(of: image.id) {
                    name = tr("{image}, loading", ["image": label])
                } else if case .waitingForSync = loader.peekState(of: image.id) {
                    name = tr("{image}, waiting for sync", ["image": label])
                } else if loader.awaitsApproval(image.id) {
                    name = tr("{image}, on your local network", ["image": label])
                } else {
                    name = label
                }
            case .placeholder(let label, let progress):
                description = label
                name =
                    progress.map {
                        tr("Downloading {image}, {percent}", ["image": label, "percent": Localization.percent($0)])
                    }
                    ?? tr("Downloading {image}", ["image": label])
            }
            // Among search results, which gallery holds the image (sighted users read it in the heading).
            let located =
                session.resultSections.first { $0.range.contains(index) }.map {
                    tr("{image}, in “{gallery}”", ["image": name, "gallery": $0.name])
                } ?? name
            let shown = session.selection.contains(cell.id) ? tr("{image}, selected", ["image": located]) : located
            return AccessibleCell(
                x: Int(frame.x.rounded()), y: Int(widgetY(fromContentY: frame.y).rounded()),
                width: Int(frame.width.rounded()), height: Int(frame.height.rounded()),
                name: shown, description: description, key: cell.id.rawValue)
        }
    }

    /// Where the cell with this key (an image id) is now, if it is still in the gallery.
    private func accessibleFrame(ofKey key: String) -> (x: Int, y: Int, width: Int, height: Int)? {
        guard let index = index(of: ImageID(key)) else { return nil }
        let frame = targetFrame(ofCellAt: index)
        return (
            Int(frame.x.rounded()), Int(widgetY(fromContentY: frame.y).rounded()), Int(frame.width.rounded()),
            Int(frame.height.rounded())
        )
    }
}
