import Foundation
import GLibKit
import GalleryCore
import GalleryIO
import GtkKit

/// One image of the gallery as large as the window allows, as Eye of GNOME and Loupe show it: the
/// cell's picture at once, then the image decoded off the main loop at the size the screen shows
/// (never more pixels than that, within ImageLimits.maximumWholePixels zoomed in), again after each
/// zoom that needs more pixels. Zoom, pan, previous/next and delete; the window decides what
/// opening, closing and deleting mean.
@MainActor
final class ImageViewer {
    let area = DrawingArea()
    private let session: GallerySession
    private let loader: ImageLoader
    /// Zoom changes come in bursts (a scroll, a pinch): the sharp decode waits for a pause.
    private static let decodeDelayMilliseconds: UInt32 = 120

    private(set) var imageID: ImageID?
    /// Where the image was among the gallery's images, to show its neighbour once it is gone.
    private var lastIndex = 0
    private var zoom = ViewerZoom(imageWidth: 1, imageHeight: 1, viewWidth: 1, viewHeight: 1)
    /// Decoded for the view: the latest sharp picture, and the one fitted to the window while the
    /// latest is larger (zooming out again paints that at once, not a large picture shrunk on the GTK
    /// thread). Each with the sharp size it was asked for.
    private var sharp: [(surface: CairoSurface, width: Int)] = []
    private var failure: String?
    private var pending: (generation: Int, width: Int, cancellation: CancellationToken)?
    private var generation = 0
    private var decodeTimer: UInt32?
    private var panFrom: (x: Double, y: Double)?
    private var pinch: PinchGesture?
    private var scaleAtPinchStart = 1.0
    private var loaderObservation: Observation?
    /// The image's frames once it turned out to be an animation, and where it is: a GLib timeout swaps in the
    /// next frame when its time comes and it is ready (decoded on a worker), else as soon as it is.
    private var animation: AnimationFrames?
    private var playback: AnimationPlayback?
    private var shownFrame: (index: Int, surface: CairoSurface)?
    private var frameTimer: UInt32?
    /// The current frame's time is over: the next one shows as soon as it is ready.
    private var frameDue = false
    private var animationRequest: CancellationToken?

    /// Esc: back to the gallery.
    var onClose: () -> Void = {}
    /// Delete: the window removes the image (with Undo); the viewer then shows its neighbour.
    var onDelete: (ImageID) -> Void = { _ in }
    /// Another image shows, or the gallery around it changed (the header says which, and of how many).
    var onShownChanged: () -> Void = {}

    init(session: GallerySession, loader: ImageLoader) {
        self.session = session
        self.loader = loader
        area.addStyleClass("image-viewer")
        area.setAccessibleRole(.image)
        area.enablePointerAndKeyEvents()
        area.setExpand(horizontal: true, vertical: true)
        area.onDraw { [weak self] context in self?.draw(context) }
        area.onSizeAllocate { [weak self] width, height in self?.sizeChanged(width: width, height: height) }
        area.onKeyPress { [weak self] key in self?.keyPressed(key) ?? false }
        area.onScroll { [weak self] event in self?.scrolled(event) ?? false }
        area.onButtonPress { [weak self] event in self?.buttonPressed(event) ?? false }
        area.onButtonRelease { [weak self] event in self?.buttonReleased(event) ?? false }
        area.onMotion { [weak self] event in self?.pointerMoved(event) ?? false }
        let pinch = PinchGesture(on: area)
        pinch.onBegin { [weak self] in self.map { $0.scaleAtPinchStart = $0.zoom.effectiveScale } }
        pinch.onScaleChanged { [weak self, weak pinch] scale in
            guard let self else { return }
            let center = pinch?.center ?? (Double(area.allocatedWidth) / 2, Double(area.allocatedHeight) / 2)
            setScale(scaleAtPinchStart * scale, around: center)
        }
        self.pinch = pinch
        loaderObservation = loader.observe { [weak self] id in
            // The cell's picture arrived: it shows until the sharp one does.
            if id == self?.imageID { self?.area.queueDraw() }
        }
    }

    /// The gallery's images, in order: what previous and next step through.
    private var images: [GalleryImage] { session.cells.compactMap(\.image) }

    var image: GalleryImage? { imageID.flatMap { id in images.first { $0.id == id } } }

    /// The frames the image plays when it is an animation.
    var animationFrameCount: Int? { playback?.timing.frameCount }

    /// Which image shows, counted from 1, and how many the gallery has.
    var position: (index: Int, count: Int)? {
        let images = images
        guard let imageID, let index = images.firstIndex(where: { $0.id == imageID }) else { return nil }
        return (index + 1, images.count)
    }

    // MARK: Showing

    func show(_ id: ImageID) {
        let images = images
        guard let index = images.firstIndex(where: { $0.id == id }) else { return }
        let image = images[index]
        cancelDecode()
        stopAnimation()
        imageID = id
        lastIndex = index
        sharp = []
        failure = nil
        let scale = Double(area.scaleFactor)
        let view = (Double(area.allocatedWidth) * scale, Double(area.allocatedHeight) * scale)
        if let size = loader.originalSize(of: id) {
            zoom = ViewerZoom(
                imageWidth: Double(size.width), imageHeight: Double(size.height), viewWidth: view.0, viewHeight: view.1)
        } else {
            // Not decoded yet: as large as any image may be, at its ratio, until the decode says.
            let ratio = max(image.aspectRatio, 0.01)
            let side = Double(ImageLimits.maximumSide)
            zoom = ViewerZoom(
                imageWidth: ratio >= 1 ? side : side * ratio, imageHeight: ratio >= 1 ? side / ratio : side,
                viewWidth: view.0, viewHeight: view.1)
        }
        area.accessibleName = image.label
        updateCursor()
        area.queueDraw()
        requestSharp()
        onShownChanged()
    }

    /// Leaves the image: its decode stops and its pixels are freed.
    func close() {
        cancelDecode()
        stopAnimation()
        if let decodeTimer { MainContext.cancel(decodeTimer) }
        decodeTimer = nil
        imageID = nil
        sharp = []
        failure = nil
    }

    /// The gallery changed: the image may be gone (deleted here or elsewhere), then its neighbour shows.
    func cellsChanged() {
        guard let imageID else { return }
        let images = images
        if images.contains(where: { $0.id == imageID }) {
            onShownChanged()
        } else if images.isEmpty {
            onClose()
        } else {
            show(images[min(lastIndex, images.count - 1)].id)
        }
    }

    private func step(_ offset: Int) {
        let images = images
        guard let imageID, let index = images.firstIndex(where: { $0.id == imageID }) else { return }
        let target = min(max(index + offset, 0), images.count - 1)
        if target != index { show(images[target].id) }
    }

    // MARK: Zoom

    /// Ctrl+plus and Ctrl+minus (the window's zoom actions): around the pointer when it is over the image.
    func zoom(by factor: Double) {
        setScale(zoom.effectiveScale * factor, around: pointerOrCenter)
    }

    private var pointerOrCenter: (x: Double, y: Double) {
        let width = Double(area.allocatedWidth)
        let height = Double(area.allocatedHeight)
        if let pointer = area.pointerPosition, pointer.x >= 0, pointer.y >= 0, pointer.x < width, pointer.y < height {
            return pointer
        }
        return (width / 2, height / 2)
    }

    /// `point` in the widget's coordinates stays where it is.
    private func setScale(_ scale: Double, around point: (x: Double, y: Double)) {
        let device = Double(area.scaleFactor)
        zoom.setScale(scale, aroundX: point.x * device, y: point.y * device)
        zoomChanged()
    }

    private func fit() {
        zoom.fit()
        zoomChanged()
    }

    private func zoomChanged() {
        updateCursor()
        area.queueDraw()
        scheduleSharp()
    }

    private func updateCursor() {
        area.setCursor(named: panFrom != nil ? "grabbing" : zoom.canPan ? "grab" : nil)
    }

    private func sizeChanged(width: Int, height: Int) {
        let scale = Double(area.scaleFactor)
        zoom.setViewSize(width: Double(width) * scale, height: Double(height) * scale)
        guard imageID != nil else { return }
        updateCursor()
        scheduleSharp()
    }

    // MARK: Decoding

    private func scheduleSharp() {
        if let decodeTimer { MainContext.cancel(decodeTimer) }
        decodeTimer = MainContext.after(milliseconds: Self.decodeDelayMilliseconds) { [weak self] in
            self?.decodeTimer = nil
            self?.requestSharp()
        }
    }

    /// Decodes the image at the size shown unless what is decoded (or on its way) already is that
    /// sharp; one much sharper than needed is decoded again smaller, as painting it would cost more.
    private func requestSharp() {
        guard let image, area.allocatedWidth > 1, failure == nil else { return }
        let wanted = zoom.sharpSize
        if sharp.contains(where: { $0.width >= wanted.width - 1 && $0.width <= wanted.width * 2 }) { return }
        if let pending, pending.width == wanted.width { return }
        cancelDecode()
        generation += 1
        let request = generation
        let cancellation = CancellationToken()
        let id = image.id
        // The latest wins: a newer request cancels this one.
        loader.pipeline.picture(
            PictureRequest(
                url: image.url, sha256: image.original?.sha256,
                fit: .within(width: wanted.width, height: wanted.height),
                scale: area.scaleFactor),
            priority: .viewer, cancellation: cancellation,
            onMain: { [weak self] decoded in self?.finish(id, request: request, wanted: wanted.width, decoded) })
        pending = (request, wanted.width, cancellation)
    }

    private func cancelDecode() {
        guard let pending else { return }
        pending.cancellation.cancel()
        self.pending = nil
    }

    private func finish(
        _ id: ImageID, request: Int, wanted: Int, _ result: Result<DecodedImage<CairoSurface>, LoadFailure>
    ) {
        guard id == imageID else { return }
        if pending?.generation == request { pending = nil }
        switch result {
        case .success(let decoded):
            // A decode overtaken by a zoom still beats the cell's picture.
            guard request == generation || sharp.isEmpty else { return }
            if Double(decoded.originalWidth) != zoom.imageWidth || Double(decoded.originalHeight) != zoom.imageHeight {
                zoom.setImageSize(width: Double(decoded.originalWidth), height: Double(decoded.originalHeight))
                updateCursor()
            }
            let smaller = sharp.filter { $0.width < wanted }.min { $0.width < $1.width }
            sharp = (smaller.map { [$0] } ?? []) + [(decoded.bitmap.forDisplay(), wanted)]
            area.queueDraw()
            // The true size may ask for other pixels than the guess did.
            if request == generation { requestSharp() }
            if animationRequest == nil { requestAnimation() }
        case .failure(let failure):
            guard request == generation else { return }
            self.failure = failure.description
            area.queueDraw()
        }
    }

    // MARK: Animation

    /// Asks whether the image is an animation once its picture is decoded (a download is at hand then); its
    /// frames are fitted inside the size the view shows.
    private func requestAnimation() {
        guard let image else { return }
        let cancellation = CancellationToken()
        animationRequest = cancellation
        let id = image.id
        let size = zoom.sharpSize
        loader.pipeline.animation(
            PictureRequest(
                url: image.url, sha256: image.original?.sha256,
                fit: .within(width: size.width, height: size.height), scale: area.scaleFactor),
            cancellation: cancellation,
            onMain: { [weak self] frames in
                guard let self, id == imageID, let frames else { return }
                startAnimation(frames)
            })
    }

    private func startAnimation(_ frames: AnimationFrames) {
        animation = frames
        playback = AnimationPlayback(timing: frames.header.timing)
        frames.onChange { [weak self] in self?.framesChanged() }
        frames.want(0)
        onShownChanged()
    }

    private func stopAnimation() {
        animationRequest?.cancel()
        animationRequest = nil
        animation?.stop()
        animation = nil
        playback = nil
        shownFrame = nil
        frameDue = false
        if let frameTimer { MainContext.cancel(frameTimer) }
        frameTimer = nil
    }

    /// A frame the animation waited for is ready, or its frames turned out fewer.
    private func framesChanged() {
        guard let animation, var playback else { return }
        if animation.frameCount < playback.timing.frameCount {
            playback.limit(toFrames: animation.frameCount)
            self.playback = playback
            onShownChanged()
        }
        if shownFrame == nil || !playback.isPlaying {
            showCurrentFrame()
        } else if frameDue {
            showNextFrame()
        }
    }

    /// The frame the playback is at, once it is decoded; then the next one is decoded and, playing, timed.
    private func showCurrentFrame() {
        guard let animation, let playback, shownFrame?.index != playback.frame,
            let surface = animation.frame(playback.frame)
        else { return }
        shownFrame = (playback.frame, surface)
        animation.want(playback.nextFrame ?? playback.frame)
        area.queueDraw()
        if playback.isPlaying { scheduleNextFrame() }
    }

    private func scheduleNextFrame() {
        guard let playback, playback.nextFrame != nil else { return }
        if let frameTimer { MainContext.cancel(frameTimer) }
        frameDue = false
        frameTimer = MainContext.after(milliseconds: UInt32(playback.currentDelay)) { [weak self] in
            guard let self else { return }
            frameTimer = nil
            frameDue = true
            showNextFrame()
        }
    }

    /// The next frame, when its time has come and it is ready: only a decoded surface is swapped in here.
    private func showNextFrame() {
        guard frameDue, let animation, var playback, playback.isPlaying, let next = playback.nextFrame,
            let surface = animation.frame(next)
        else { return }
        _ = playback.advance()
        self.playback = playback
        frameDue = false
        shownFrame = (next, surface)
        animation.want(playback.nextFrame ?? next)
        area.queueDraw()
        scheduleNextFrame()
    }

    private func togglePlaying() {
        guard var playback else { return }
        if playback.isPlaying {
            playback.pause()
            if let frameTimer { MainContext.cancel(frameTimer) }
            frameTimer = nil
            frameDue = false
            self.playback = playback
        } else {
            playback.play()
            self.playback = playback
            shownFrame?.index == playback.frame ? scheduleNextFrame() : showCurrentFrame()
        }
    }

    /// `,` and `.` while paused: the frame before or after shows once it is decoded.
    private func stepFrame(by offset: Int) {
        guard var playback, playback.step(by: offset) != nil else { return }
        self.playback = playback
        animation?.want(playback.frame)
        showCurrentFrame()
    }

    // MARK: Drawing

    private func draw(_ context: CairoContext) {
        area.renderBackground(context)
        guard let imageID else { return }
        let device = Double(area.scaleFactor)
        let rect = zoom.imageRect
        let preview: CairoSurface? =
            if case .ready(let surface) = loader.peekState(of: imageID) { surface } else { nil }
        if let surface = shownFrame?.surface ?? surfaceToPaint(width: rect.width) ?? preview {
            context.draw(
                surface, x: rect.x / device, y: rect.y / device, width: rect.width / device,
                height: rect.height / device)
        }
        if let failure, sharp.isEmpty {
            let width = Double(area.allocatedWidth)
            context.drawText(
                tr("This image could not be shown: {reason}", ["reason": failure]), widget: area,
                centerX: width / 2, centerY: Double(area.allocatedHeight) - 40, maxWidth: width - 48,
                color: area.themeForeground)
        }
    }

    /// The sharpest decoded picture that is cheap to paint `width` device pixels wide: one more than
    /// twice as wide waits for its smaller decode, and the cell's picture shows meanwhile.
    private func surfaceToPaint(width: Double) -> CairoSurface? {
        sharp.filter { Double($0.surface.pixelWidth) <= max(width * 2, 1) }
            .max { $0.surface.pixelWidth < $1.surface.pixelWidth }?.surface
    }

    // MARK: Input

    private func keyPressed(_ key: KeyEvent) -> Bool {
        let control = key.modifiers.contains(.control)
        switch key.keyName {
        case "Left", "Page_Up", "KP_Page_Up":
            step(-1)
        case "Right", "Page_Down", "KP_Page_Down":
            step(1)
        case "Home":
            step(-images.count)
        case "End":
            step(images.count)
        case "Escape":
            onClose()
        case "space":
            guard playback != nil else { return false }
            togglePlaying()
        case "comma", "period":
            guard playback?.isPlaying == false else { return false }
            stepFrame(by: key.keyName == "comma" ? -1 : 1)
        case "Delete", "KP_Delete":
            if let imageID { onDelete(imageID) }
        case "0", "KP_0":
            guard control else { return false }
            fit()
        case "1", "KP_1":
            guard !control else { return false }
            setScale(1, around: pointerOrCenter)
        case "plus", "equal", "KP_Add":
            guard !control else { return false }
            zoom(by: 1.25)
        case "minus", "KP_Subtract":
            guard !control else { return false }
            zoom(by: 1 / 1.25)
        default:
            return false
        }
        return true
    }

    private func scrolled(_ event: ScrollEvent) -> Bool {
        let step: Double
        switch event.direction {
        case .up: step = -1
        case .down: step = 1
        case .smooth(let dy): step = dy
        case .other: return false
        }
        if event.modifiers.contains(.control) {
            setScale(zoom.effectiveScale * pow(1.15, -step), around: (event.x, event.y))
        } else if zoom.canPan {
            let distance = -step * 60 * Double(area.scaleFactor)
            event.modifiers.contains(.shift) ? zoom.pan(dx: distance, dy: 0) : zoom.pan(dx: 0, dy: distance)
            area.queueDraw()
        }
        return true
    }

    private func buttonPressed(_ event: ButtonEvent) -> Bool {
        guard event.button == 1 else { return false }
        area.grabFocus()
        if event.isDoubleClick {
            // As in Loupe: a double-click shows the image pixel for pixel there, or the whole of it again.
            panFrom = nil
            if zoom.isFitting && zoom.fitScale < 1 { setScale(1, around: (event.x, event.y)) } else { fit() }
            return true
        }
        if zoom.canPan {
            panFrom = (event.x, event.y)
            updateCursor()
        }
        return true
    }

    private func pointerMoved(_ event: MotionEvent) -> Bool {
        guard let from = panFrom, event.buttonHeld else { return false }
        let device = Double(area.scaleFactor)
        zoom.pan(dx: (event.x - from.x) * device, dy: (event.y - from.y) * device)
        panFrom = (event.x, event.y)
        area.queueDraw()
        return true
    }

    private func buttonReleased(_ event: ButtonEvent) -> Bool {
        guard event.button == 1, panFrom != nil else { return false }
        panFrom = nil
        updateCursor()
        return true
    }
}
