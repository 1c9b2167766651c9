import GLibKit
import GalleryCore
import GtkKit

/// One image of the page picker: its thumbnail (a spinner until it arrives), its size in pixels and
/// whether the library has it already; a toggle button, so a click or Space chooses it or leaves it.
@MainActor
final class PagePickerTile {
    /// The side of the square a thumbnail is fitted into, in logical pixels.
    static let side = 150

    enum Loading {
        case waiting
        case loaded(surface: CairoSurface, width: Int, height: Int)
        case failed(String)
    }

    let image: PageImage
    let button: ToggleButton
    private let picture = DrawingArea()
    private let check = Image(iconName: "object-select-symbolic", pixelSize: 16)
    private let spinner = Spinner()
    private let caption = Label()
    private(set) var loading = Loading.waiting
    var isInLibrary = false {
        didSet { describe() }
    }
    /// Chosen or left by the user.
    var onToggled: () -> Void = {}

    init(image: PageImage) {
        self.image = image
        let overlay = Overlay()
        picture.setSizeRequest(width: Int32(Self.side), height: Int32(Self.side))
        overlay.add(picture)
        spinner.setAlign(horizontal: .center, vertical: .center)
        overlay.addOverlay(spinner)
        check.addStyleClass("page-picker-check")
        check.setAlign(horizontal: .end, vertical: .start)
        overlay.addOverlay(check)
        caption.addStyleClass("dim-label")
        caption.ellipsize()
        let content = Box(.vertical, spacing: 4)
        content.append(overlay)
        content.append(caption)
        button = ToggleButton(content: content)
        button.addStyleClass("page-picker-tile")
        button.isActive = true
        picture.onDraw { [weak self] context in self?.draw(context) }
        button.onToggled { [weak self] in
            self?.describe()
            self?.onToggled()
        }
        describe()
    }

    var isChosen: Bool {
        get { button.isActive }
        set { button.isActive = newValue }
    }

    /// The size the picture has, else the one the page declares for it.
    var pixelSize: (width: Int, height: Int)? {
        if case .loaded(_, let width, let height) = loading { return (width, height) }
        guard let width = image.width, let height = image.height else { return nil }
        return (width, height)
    }

    /// Smaller than `PageLimits.smallImagePixels` on a side, as far as is known.
    var isSmall: Bool {
        guard let size = pixelSize else { return false }
        return min(size.width, size.height) < PageLimits.smallImagePixels
    }

    var hasFailed: Bool {
        if case .failed = loading { return true }
        return false
    }

    func show(_ loading: Loading) {
        self.loading = loading
        spinner.isVisible = false
        if case .failed = loading { isChosen = false }
        describe()
        picture.queueDraw()
    }

    private func describe() {
        check.isVisible = isChosen
        var parts: [String] = []
        switch loading {
        case .waiting: caption.text = tr("Loading…")
        case .loaded(_, let width, let height):
            caption.text = tr("{width} × {height}", ["width": "\(width)", "height": "\(height)"])
            parts.append(tr("{width} × {height} pixels", ["width": "\(width)", "height": "\(height)"]))
        case .failed(let reason):
            caption.text = tr("Not loaded")
            parts.append(reason)
        }
        if isInLibrary {
            caption.text = tr("{size}, in library", ["size": caption.text])
            parts.append(tr("already in the library"))
        }
        let name = image.altText ?? image.title ?? GalleryImage(url: image.address, aspectRatio: 1).label
        button.accessibleName = name
        button.accessibleDescription = parts.joined(separator: ", ")
        button.tooltip = ([name] + parts).joined(separator: "\n")
    }

    private func draw(_ context: CairoContext) {
        let side = Double(Self.side)
        switch loading {
        case .loaded(let surface, _, _):
            let scale = min(side / max(surface.logicalWidth, 1), side / max(surface.logicalHeight, 1), 1)
            let (width, height) = (surface.logicalWidth * scale, surface.logicalHeight * scale)
            context.draw(surface, x: (side - width) / 2, y: (side - height) / 2, width: width, height: height)
        case .failed:
            var color = picture.themeForeground
            color.alpha = 0.08
            context.setColor(color)
            context.roundedRectangle(x: 0, y: 0, width: side, height: side, radius: 6)
            context.fill()
        case .waiting:
            break
        }
    }
}
