import Foundation
import GLibKit
import GalleryCore
import GalleryIO
import GtkKit

/// The images of a page, to choose from before they are added (a page's address dropped or pasted, or
/// a browser's list): a grid of thumbnails loaded a few at a time, each with its size; small ones hidden
/// until the switch shows them; those the library has already marked and left out. All others start
/// chosen; Add hands the chosen ones on, Cancel and Escape hand nothing.
@MainActor
final class PagePicker {
    let window: DialogWindow
    let capture: PageCapture
    private let pipeline: ImagePipeline
    private let library: GalleryLibrary
    private let scale: Int
    private let header = HeaderBar(title: tr("Add Images from Page"))
    private let addButton = Button(label: tr("_Add"))
    private let grid = FlowBox(columnSpacing: 6, rowSpacing: 6)
    private let showSmall = Switch()
    private let summary = Label()
    private let content = Stack()
    private var tiles: [PagePickerTile] = []
    /// Tiles whose thumbnail is not asked for yet, in page order.
    private var waiting: ArraySlice<Int> = []
    private var loadingCount = 0
    private let cancellation = CancellationToken()
    private var handed = false
    /// The chosen images, in page order: Add was pressed.
    var onAdd: ([PageImage]) -> Void = { _ in }
    /// The picker is gone, whether something was added or not.
    var onClosed: () -> Void = {}

    init(capture: PageCapture, parent: ApplicationWindow, pipeline: ImagePipeline, library: GalleryLibrary, scale: Int)
    {
        self.capture = Self.reachable(capture)
        self.pipeline = pipeline
        self.library = library
        self.scale = scale
        window = DialogWindow(title: tr("Add Images from Page"), parent: parent)
        window.setModal(true)
        window.setDefaultSize(width: 760, height: 560)
        buildHeader()
        buildContent()
        window.onDestroy { [weak self] in
            guard let self else { return }
            cancellation.cancel()
            onClosed()
        }
        window.onKeyPress { [weak self] key in
            guard let self, key.modifiers == .control else { return false }
            switch key.keyName.lowercased() {
            case "a": setAllChosen(true)
            case "return", "kp_enter": add()
            default: return false
            }
            return true
        }
    }

    /// The images of `capture` the app may fetch, the first `PageLimits.maximumImages`: a page may not
    /// send the app where the page itself could not lead, so a public page naming addresses on the
    /// user's network lists none of them.
    nonisolated static func reachable(_ capture: PageCapture) -> PageCapture {
        let pageScope = AddressScope.ofWebAddress(capture.pageAddress) ?? .publicInternet
        var capture = capture
        capture.images = Array(
            capture.images.lazy.filter { image in
                AddressScope.ofWebAddress(image.address).map(pageScope.mayLead(to:)) ?? false
            }
            .prefix(PageLimits.maximumImages))
        return capture
    }

    func present() {
        window.showAll()
        refresh()
        window.present()
        tiles.first?.button.grabFocus()
        pipeline.bytes.localAddresses?.approve(capture.images.map(\.address))
        waiting = ArraySlice(tiles.indices)
        loadMore()
    }

    private func buildHeader() {
        header.setShowsCloseButton(false)
        header.subtitle = capture.pageTitle ?? capture.pageAddress
        let cancel = Button(label: tr("_Cancel"))
        cancel.onClicked { [weak self] in self?.window.close() }
        addButton.addStyleClass("suggested-action")
        addButton.onClicked { [weak self] in self?.add() }
        header.packStart(cancel)
        header.packEnd(addButton)
        window.setTitlebar(header)
    }

    private func buildContent() {
        let scroll = ScrolledWindow()
        grid.addStyleClass("page-picker-grid")
        scroll.add(grid)
        for image in capture.images {
            let tile = PagePickerTile(image: image)
            tile.onToggled = { [weak self] in self?.refresh() }
            grid.append(tile.button)
            tiles.append(tile)
        }
        let noImages = StatusPage(
            iconName: "image-missing-symbolic", title: tr("No Images on This Page"),
            description: tr("The page names no image that can be added."))
        content.addNamed(scroll, "images")
        content.addNamed(noImages.root, "empty")

        let switchLabel = Label(mnemonic: tr("Show _small images"))
        switchLabel.setMnemonicWidget(showSmall)
        showSmall.accessibleName = tr("Show small images")
        showSmall.onToggled { [weak self] in self?.refresh() }
        summary.setXAlign(0)
        summary.ellipsize()
        summary.addStyleClass("dim-label")
        let bar = Box(.horizontal, spacing: 12)
        bar.addStyleClass("page-picker-bar")
        bar.append(summary, expand: true)
        bar.append(switchLabel)
        bar.append(showSmall)

        let column = Box(.vertical)
        column.append(content, expand: true)
        column.append(bar)
        window.add(column)
    }

    /// Tiles shown: the small ones only when the switch says so.
    private func isShown(_ tile: PagePickerTile) -> Bool { showSmall.isActive || !tile.isSmall }

    private var chosen: [PagePickerTile] { tiles.filter { $0.isChosen && isShown($0) && !$0.hasFailed } }

    private func refresh() {
        content.visibleChildName = tiles.isEmpty ? "empty" : "images"
        for tile in tiles { grid.setShown(tile.button, isShown(tile)) }
        let count = chosen.count
        addButton.isSensitive = count > 0
        addButton.label = count > 0 ? trPlural("_Add {count} Image", "_Add {count} Images", count) : tr("_Add")
        let hidden = tiles.count(where: { !isShown($0) })
        var parts = [
            trPlural(
                "{count} of {total} image chosen", "{count} of {total} images chosen", tiles.count,
                ["count": Localization.number(count), "total": Localization.number(tiles.count)])
        ]
        if hidden > 0 { parts.append(trPlural("{count} small image hidden", "{count} small images hidden", hidden)) }
        summary.text = parts.joined(separator: " · ")
        window.accessibleDescription = summary.text
    }

    private func setAllChosen(_ chosen: Bool) {
        for tile in tiles where isShown(tile) && !tile.hasFailed { tile.isChosen = chosen }
        refresh()
    }

    private func add() {
        let images = chosen.map(\.image)
        guard !images.isEmpty, !handed else { return }
        handed = true
        onAdd(images)
        window.close()
    }

    // MARK: Thumbnails

    /// Asks for the next thumbnails, `PageLimits.thumbnailsAtOnce` at a time.
    private func loadMore() {
        while loadingCount < PageLimits.thumbnailsAtOnce, let index = waiting.popFirst() {
            loadingCount += 1
            load(index)
        }
    }

    private func load(_ index: Int) {
        let address = tiles[index].image.address
        let pipeline = pipeline
        let box = PagePickerTile.side * scale
        let scale = scale
        let cancellation = cancellation
        pipeline.bytes.fetch(address, priority: .visible, cancellation: cancellation, arrivingOn: .cpu) { fetched in
            // Decoded in the job the bytes arrived in: they count against the transfer budget until then.
            let outcome = fetched.flatMap { bytes in
                pipeline.pictureNow(
                    PictureRequest(url: address, bytes: bytes, fit: .within(width: box, height: box), scale: scale)
                ).map { (decoded: $0, sha256: Checksum.sha256(bytes)) }
            }
            guard !cancellation.isCancelled else { return }
            MainContext.post { [weak self] in self?.loaded(index, outcome) }
        }
    }

    private func loaded(
        _ index: Int, _ outcome: Result<(decoded: DecodedImage<CairoSurface>, sha256: String), LoadFailure>
    ) {
        loadingCount -= 1
        let tile = tiles[index]
        switch outcome {
        case .success(let (decoded, sha256)):
            tile.show(.loaded(surface: decoded.bitmap, width: decoded.originalWidth, height: decoded.originalHeight))
            if library.image(keeping: sha256) != nil {
                tile.isInLibrary = true
                tile.isChosen = false
            }
        case .failure(let failure):
            tile.show(.failed(failure.description))
        }
        refresh()
        loadMore()
    }
}
