import GLibKit
import GalleryCore
import GalleryIO
import GtkKit

/// Find Duplicates (the main menu): the library's groups of near-duplicates, found on a worker, each with its
/// copies, the best marked and what tells them apart named, and Merge for the group; Merge All for every group.
/// Closing it cancels the search; the windows stay live meanwhile. It looks again after each change of the library.
@MainActor
final class FindDuplicatesWindow {
    let window: DialogWindow
    private let library: GalleryLibrary
    private let loader: ImageLoader
    private let scheduler: JobScheduler
    private let pages = Stack()
    private let searching = Label(tr("Looking for images that look alike…"))
    private let empty = StatusPage(
        iconName: "edit-copy-symbolic", title: tr("No Duplicates"),
        description: tr("No two images in the library look alike."))
    private let summary = Label()
    private let mergeAllButton = Button(label: tr("_Merge All"))
    private let list = ListBox()
    private let more = Label()
    private var rows: [ListBoxRow] = []
    private var thumbnails: [ImageID: DrawingArea] = [:]
    private var groups: [DuplicateGroup] = []
    private var running: CancellationToken?
    private var lookQueued = false
    private var observations: [Observation] = []
    /// Merges each group into its best copy, as one undo step.
    var merge: ([DuplicateGroup]) -> Void = { _ in }
    /// The window is gone.
    var onClosed: () -> Void = {}

    init(library: GalleryLibrary, loader: ImageLoader, parent: ApplicationWindow) {
        self.library = library
        self.loader = loader
        scheduler = loader.pipeline.scheduler
        window = DialogWindow(title: tr("Find Duplicates"), parent: parent)
        window.setDefaultSize(width: 720, height: 560)
        summary.wrapSelectableText()
        summary.canFocus = false
        mergeAllButton.tooltip = tr("Keep the best copy of each image and merge the others into it")
        mergeAllButton.onClicked { [weak self] in self?.mergeAll() }
        let top = Box(.horizontal, spacing: 12)
        top.append(summary, expand: true)
        top.append(mergeAllButton)
        list.accessibleName = tr("Groups of duplicates")
        list.addStyleClass("duplicate-groups")
        let scroll = ScrolledWindow()
        scroll.add(list)
        scroll.setExpand(horizontal: true, vertical: true)
        more.addStyleClass("dim-label")
        more.setXAlign(0)
        let found = Box(.vertical, spacing: 12)
        found.append(top)
        found.append(scroll, expand: true)
        found.append(more)
        searching.addStyleClass("dim-label")
        pages.addNamed(searching, Page.searching)
        pages.addNamed(empty.root, Page.empty)
        pages.addNamed(found, Page.found)
        let content = Box(.vertical)
        content.addStyleClass("properties")
        content.append(pages, expand: true)
        window.add(content)
        window.onDestroy { [weak self] in
            guard let self else { return }
            running?.cancel()
            observations = []
            onClosed()
        }
        observations.append(
            library.observe { [weak self] change in
                switch change {
                case .cells, .galleries: self?.queueLook()
                case .progress, .placeholdersDiscarded, .history: break
                }
            })
        observations.append(loader.observe { [weak self] id in self?.thumbnails[id]?.queueDraw() })
    }

    func present() {
        window.showAll()
        look()
        window.present()
    }

    private enum Page {
        static let searching = "searching"
        static let empty = "empty"
        static let found = "found"
    }

    // MARK: Looking

    /// Looks again once every observer of this change has run.
    private func queueLook() {
        guard !lookQueued else { return }
        lookQueued = true
        MainContext.post { [weak self] in
            guard let self else { return }
            lookQueued = false
            look()
        }
    }

    /// Groups the library's images on a worker; the groups shown stay until the new ones come.
    private func look() {
        running?.cancel()
        let token = CancellationToken()
        running = token
        if groups.isEmpty { pages.visibleChildName = Page.searching }
        let galleries = library.galleries.map { ($0.id, $0.name, library.cells(of: $0.id)) }
        scheduler.run(
            .cpu, .visible, cancellation: token,
            { DuplicateGroup.find(in: galleries) { token.isCancelled } },
            then: { [weak self] found in
                guard let self, running === token, let found else { return }
                running = nil
                show(found)
            })
    }

    private func show(_ found: [DuplicateGroup]) {
        let hadFocus = list.selectedIndex
        groups = found
        for row in rows { list.remove(row) }
        thumbnails = [:]
        rows = found.prefix(Self.shownLimit).map(row)
        for row in rows { list.append(row) }
        list.showAll()
        guard !found.isEmpty else {
            pages.visibleChildName = Page.empty
            return
        }
        let copies = found.reduce(0) { $0 + $1.members.count - 1 }
        summary.text = trPlural(
            "{count} image has copies that look like it; merging keeps the best and merges the others into it.",
            "{count} images have copies that look like them; merging keeps the best of each and merges the others into it.",
            found.count)
        mergeAllButton.accessibleDescription = trPlural(
            "Merges {count} copy", "Merges {count} copies", copies)
        let hidden = found.count - rows.count
        more.text = trPlural(
            "{count} more image with copies: merge these to see it",
            "{count} more images with copies: merge these to see them",
            hidden)
        more.isVisible = hidden > 0
        pages.visibleChildName = Page.found
        // After a merge the keyboard stays where it was, on the next group.
        if let hadFocus, !rows.isEmpty {
            list.select(index: min(hadFocus, rows.count - 1))
            rows[min(hadFocus, rows.count - 1)].grabFocus()
        }
    }

    /// Rows are widgets: past a few hundred, building them would hold up the window.
    private static let shownLimit = 100

    // MARK: A group

    private func row(_ group: DuplicateGroup) -> ListBoxRow {
        let differences = group.differences
        let copies = Box(.horizontal, spacing: 12)
        for (number, member) in group.members.prefix(Self.shownCopies).enumerated() {
            copies.append(tile(member, isBest: number == 0, differences: differences))
        }
        if group.members.count > Self.shownCopies {
            let others = Label(
                trPlural("and {count} more", "and {count} more", group.members.count - Self.shownCopies))
            others.addStyleClass("dim-label")
            copies.append(others)
        }
        let merge = Button(label: tr("M_erge"))
        merge.accessibleDescription = tr(
            "Keeps “{image}” and merges the other copies into it", ["image": group.best.image.label])
        merge.setAlign(horizontal: .end, vertical: .center)
        merge.onClicked { [weak self] in self?.merge([group]) }
        let line = Box(.horizontal, spacing: 12)
        line.append(copies, expand: true)
        line.append(merge)
        let row = ListBoxRow()
        row.setChild(line)
        row.accessibleName = trPlural(
            "“{image}” and {count} copy", "“{image}” and {count} copies", group.members.count - 1,
            ["image": group.best.image.label])
        return row
    }

    private func tile(_ member: DuplicateGroup.Member, isBest: Bool, differences: [DuplicateGroup.Difference])
        -> Widget
    {
        let image = member.image
        let thumbnail = DrawingArea()
        thumbnail.setSizeRequest(width: Self.thumbnailWidth, height: Self.thumbnailHeight)
        thumbnail.onDraw { [weak self, weak thumbnail] context in
            guard let self, let thumbnail else { return }
            draw(image, in: thumbnail, context: context)
        }
        thumbnails[image.id] = thumbnail
        let name = Label(image.label)
        name.ellipsize()
        name.setXAlign(0)
        let marker = Label(isBest ? tr("Best copy") : "")
        marker.setXAlign(0)
        let facts = Label(Self.facts(of: member, naming: differences))
        facts.setXAlign(0)
        facts.addStyleClass("dim-label")
        facts.ellipsize()
        let tile = Box(.vertical, spacing: 3)
        tile.setSizeRequest(width: Self.thumbnailWidth, height: -1)
        tile.append(thumbnail)
        tile.append(name)
        tile.append(marker)
        tile.append(facts)
        tile.accessibleName = isBest ? tr("{image}, the best copy", ["image": image.label]) : image.label
        return tile
    }

    /// What sets this copy apart from the others: each value of its group's differences that is known.
    static func facts(of member: DuplicateGroup.Member, naming differences: [DuplicateGroup.Difference]) -> String {
        differences.compactMap { difference -> String? in
            switch difference {
            case .pixelSize: member.value(of: .pixelSize)
            case .format: member.value(of: .format)
            case .byteSize: member.image.original.map { DisplayFormat.byteSize($0.byteCount) }
            case .gallery: "“\(member.galleryName)”"
            }
        }.joined(separator: " · ")
    }

    /// A group's copies shown side by side; the rest are counted.
    private static let shownCopies = 4
    private static let thumbnailWidth: Int32 = 144
    private static let thumbnailHeight: Int32 = 108

    private func draw(_ image: GalleryImage, in area: DrawingArea, context: CairoContext) {
        let width = Double(area.allocatedWidth)
        let height = Double(area.allocatedHeight)
        let palette = Palette(widget: area)
        context.setColor(palette.tile)
        context.roundedRectangle(x: 0, y: 0, width: width, height: height, radius: 6)
        context.fill()
        let ratio = image.displayAspectRatio
        let fitted = ratio > width / height ? (width, width / ratio) : (height * ratio, height)
        let cell = LayoutRect(x: 0, y: 0, width: fitted.0, height: fitted.1)
        guard case .ready(let surface) = loader.state(for: image, cell: cell, scale: area.scaleFactor) else { return }
        // Rounded as the gallery's cells are, whether the picture fills the tile or not.
        let x = (width - fitted.0) / 2
        let y = (height - fitted.1) / 2
        context.roundedRectangle(x: x, y: y, width: fitted.0, height: fitted.1, radius: 6)
        context.clip()
        context.draw(surface, x: x, y: y, width: fitted.0, height: fitted.1)
    }

    // MARK: Merging

    private func mergeAll() {
        guard !groups.isEmpty else { return }
        merge(groups)
    }
}
