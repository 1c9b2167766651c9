import Foundation
import GLibKit
import GalleryCore
import GalleryIO
import GtkKit

/// Brings dropped images in: downloads (with progress) or reads them on workers, checks that they decode, keeps the
/// bytes in the library's originals, and turns each placeholder into its image wherever it stands by then, in whichever
/// gallery it waits, shown or not. When the URL fails but the drag carried the bytes, those are used. One for the app:
/// closing a window does not stop its drops.
@MainActor
final class DropDownloader {
    private let library: GalleryLibrary
    private let loader: ImageLoader
    /// The transfers still running, by placeholder: deleting a placeholder (or its gallery) stops its download.
    private var cancellations: [ImageID: CancellationToken] = [:]
    private var observation: Observation?
    /// The position of the next dropped image among all dropped since launch: the images of a drop
    /// come in its order, and after those of earlier drops.
    private var nextPosition = 0
    /// Images downloaded since they were last placed.
    private var arrived: [(placeholder: ImageID, image: GalleryImage)] = []
    /// When arrived images last took their places (monotonic microseconds): those arriving less than a frame later
    /// wait for the next frame, so a frame lays a gallery out and indexes it once however many images land in it.
    private var lastPlaced = Int.min / 2
    private static let frameMicroseconds = 16_667
    /// The placeholders of drops and pastes of one image: if its bytes are in the library already, the user is asked.
    private var asksIfKept: Set<ImageID> = []
    /// A drop into `galleryID` could not be added: someone showing it says why.
    var onFailure: (_ message: String, _ galleryID: String) -> Void = { _, _ in }
    /// A single image dropped into `galleryID` is in the library already, as `existing`: someone showing
    /// the gallery says so, offering to show it or to `addAnyway` where it was dropped.
    var onAlreadyKept:
        (
            _ existing: (galleryID: String, id: ImageID), _ galleryID: String,
            _ addAnyway: @escaping @MainActor () -> Void
        )
            -> Void = { _, _, _ in }
    /// A single address dropped or pasted into `galleryID` answered with a page, read for its images: someone
    /// showing the gallery offers them, in place of `placeholder`.
    var onPage:
        (_ capture: PageCapture, _ placeholder: ImageID, _ galleryID: String, _ arrival: ImageOrigin.Arrival) -> Void =
            { _, _, _, _ in }
    /// A single image dropped into `galleryID` looks like `existing`, an image the library had: someone showing the
    /// gallery says so, offering to show it, keep both, or keep the better copy.
    var onLooksLike: (_ existing: ImageID, _ dropped: ImageID, _ galleryID: String) -> Void = { _, _, _ in }
    /// `count` of the `total` images of a drop into `galleryID` look like images the library had.
    var onSomeLookLike: (_ count: Int, _ total: Int, _ galleryID: String) -> Void = { _, _, _ in }
    /// The library's fingerprints, where each arrival looks for the images it looks like.
    var likenessIndex: LikenessIndex?
    /// The drops whose images are still on their way, by key, and the drop of each placeholder.
    private var likenessChecks: [Int: LikenessCheck] = [:]
    private var checkOfPlaceholder: [ImageID: Int] = [:]
    private var nextCheckKey = 0
    /// The display's scale factor: dropped images are decoded for it.
    var scaleFactor = 1

    init(library: GalleryLibrary, loader: ImageLoader) {
        self.library = library
        self.loader = loader
        observation = library.observe { [weak self] change in
            guard case .placeholdersDiscarded(let ids) = change else { return }
            for id in ids {
                self?.cancellations.removeValue(forKey: id)?.cancel()
                self?.settleLikeness(of: id, nil)
            }
        }
    }

    /// Starts every image; the first fills `placeholder`, the others get placeholders right after
    /// it, and together they are one undo step. Folders (dropped from Files, or chosen) are listed
    /// first, off the main loop: their images take their place, in name order. Each image records
    /// that it came by `arrival`, now (a file dragged from Files: as a file). Once every image has arrived or
    /// failed, `landed` hears those in the library, in order (none: it is not called).
    func start(
        _ images: [DroppedImage], placeholder: ImageID, arrival: ImageOrigin.Arrival,
        landed: (@MainActor ([ImageID]) -> Void)? = nil
    ) {
        // The user here adds them: their addresses may be on the user's own network, now and at later launches.
        loader.bytesSource.localAddresses?.approve(images.flatMap(\.addressesToTry))
        let added = ImageOrigin.timestamp(Date())
        let images = images.map { image in
            var image = image
            var origin = image.origin ?? ImageOrigin()
            origin.arrival = arrival == .drop && LocalFiles.isLocalFile(image) ? .file : arrival
            origin.added = added
            image.origin = origin
            return image
        }
        guard images.contains(where: LocalFiles.isLocalFile) else {
            fetchAll(images, placeholder: placeholder, landed: landed)
            return
        }
        let imageExtensions = LocalFiles.imageExtensions
        loader.pipeline.scheduler.run(
            .io, .drop(nextPosition), { LocalFiles.expand(images, imageExtensions: imageExtensions) },
            then: { [weak self] listing in self?.listed(listing, placeholder: placeholder, landed: landed) })
    }

    private func listed(
        _ listing: LocalFiles.Listing, placeholder: ImageID, landed: (@MainActor ([ImageID]) -> Void)?
    ) {
        // Deleted while the folder was read: nobody waits for it any more.
        guard let (galleryID, _) = library.location(of: placeholder) else { return }
        if let message = listing.message { onFailure(message, galleryID) }
        guard !listing.images.isEmpty else {
            library.discardPlaceholder(placeholder)
            return
        }
        fetchAll(listing.images, placeholder: placeholder, landed: landed)
    }

    private func fetchAll(
        _ images: [DroppedImage], placeholder: ImageID, landed: (@MainActor ([ImageID]) -> Void)?
    ) {
        if let first = images.first { library.relabelPlaceholder(placeholder, label: Self.label(for: first)) }
        var placeholders = [placeholder]
        if images.count > 1, let (galleryID, index) = library.location(of: placeholder),
            let others = library.insertPlaceholders(
                in: galleryID, at: index + 1, labels: images.dropFirst().map(Self.label))
        {
            placeholders += others
        }
        library.groupArrivals(placeholders)
        if placeholders.count == 1 { asksIfKept.insert(placeholder) }
        let checkKey = nextCheckKey
        nextCheckKey += 1
        likenessChecks[checkKey] = LikenessCheck(order: placeholders, waiting: Set(placeholders), landed: landed)
        for id in placeholders { checkOfPlaceholder[id] = checkKey }
        let firstPosition = nextPosition
        nextPosition += placeholders.count
        // Started once the main loop is idle, after the frame that shows the placeholders: opening a
        // drop's connections does not compete with painting them.
        MainContext.post { [weak self] in
            guard let self else { return }
            for (offset, (image, placeholder)) in zip(images, placeholders).enumerated()
            where library.holds(placeholder) {
                fetch(image, into: placeholder, position: firstPosition + offset, readsPages: images.count == 1)
            }
        }
    }

    private static func label(for image: DroppedImage) -> String {
        image.url.map { GalleryImage(url: $0, aspectRatio: 1).label } ?? tr("image")
    }

    /// Starts bringing `image` into `placeholder`; when `readsPages`, an address that answers with a page
    /// offers the page's images instead.
    private func fetch(_ image: DroppedImage, into placeholder: ImageID, position: Int, readsPages: Bool) {
        let cancellation = CancellationToken()
        cancellations[placeholder] = cancellation
        let label = Self.label(for: image)
        let origin = image.origin
        var transfer = DropTransfer(
            image: image, scale: scaleFactor, priority: .drop(position), pipeline: loader.pipeline,
            cancellation: cancellation,
            progress: { fraction in
                MainContext.post { [weak self] in self?.library.updatePlaceholder(placeholder, progress: fraction) }
            },
            done: { result in
                MainContext.post { [weak self] in self?.finish(placeholder, label: label, origin: origin, result) }
            })
        if readsPages, image.fallbackBytes == nil {
            let arrival = origin?.arrival ?? .drop
            transfer.page = { capture in
                MainContext.post { [weak self] in self?.offerPage(capture, in: placeholder, arrival: arrival) }
            }
        }
        transfer.attempt(0, firstFailure: nil)
    }

    private func offerPage(_ capture: PageCapture, in placeholder: ImageID, arrival: ImageOrigin.Arrival) {
        cancellations[placeholder] = nil
        asksIfKept.remove(placeholder)
        // The page's images arrive as a drop of their own (the picker's): this one waits for nothing more.
        settleLikeness(of: placeholder, nil)
        // Gone already (deleted, or its gallery was): nobody waits for the page.
        guard let (galleryID, _) = library.location(of: placeholder) else { return }
        library.relabelPlaceholder(placeholder, label: capture.pageTitle ?? tr("page"))
        onPage(capture, placeholder, galleryID, arrival)
    }

    private func finish(_ placeholder: ImageID, label: String, origin: ImageOrigin?, _ result: DropTransfer.Outcome) {
        cancellations[placeholder] = nil
        let asks = asksIfKept.remove(placeholder) != nil
        var arrivedLikeness: Likeness?
        defer { settleLikeness(of: placeholder, arrivedLikeness) }
        switch result {
        case .success(let (url, decoded, original)):
            let ratio = Double(decoded.originalWidth) / Double(max(decoded.originalHeight, 1))
            var image = GalleryImage(id: placeholder, url: url, aspectRatio: ratio)
            image.original = original
            image.origin = origin
            image.likeness = decoded.likeness
            if asks, let sha256 = original?.sha256,
                let existing = library.image(keeping: sha256, excluding: placeholder),
                let (galleryID, index) = library.location(of: placeholder)
            {
                library.discardPlaceholder(placeholder)
                onAlreadyKept(existing, galleryID) { [weak self] in
                    self?.addAnyway(image, decoded, label: label, in: galleryID, at: index)
                }
                return
            }
            arrivedLikeness = image.likeness
            if let key = checkOfPlaceholder[placeholder] { likenessChecks[key]?.fulfilled.insert(placeholder) }
            loader.insert(decoded, for: placeholder)
            // Transfers started together end together: the images that arrived within a frame take their places in
            // one change, laid out and saved once.
            if arrived.isEmpty { schedulePlacing() }
            arrived.append((placeholder, image))
        case .failure(let failure):
            // Gone already (deleted, or its gallery was): nobody waits for the message.
            guard let (galleryID, _) = library.location(of: placeholder) else { return }
            library.discardPlaceholder(placeholder)
            onFailure(
                tr("Couldn’t add “{image}”: {reason}", ["image": label, "reason": failure.description]), galleryID)
        }
    }

    /// Adds an image the library had already where it was dropped (or at the end, when that gallery
    /// has fewer images now), as the drop would have.
    private func addAnyway(
        _ image: GalleryImage, _ decoded: DecodedImage<CairoSurface>, label: String, in galleryID: String, at index: Int
    ) {
        let cellCount = library.cells(of: galleryID).count
        guard let placeholder = library.insertPlaceholder(in: galleryID, at: min(index, cellCount), label: label) else {
            return
        }
        loader.insert(decoded, for: placeholder)
        library.fulfillPlaceholder(placeholder, with: image)
    }

    // MARK: Looking like images the library had

    /// A drop's images, in order: those still on their way, those that took their placeholder's place, those that
    /// arrived with a likeness; and who hears which landed once none is on its way.
    private struct LikenessCheck {
        var order: [ImageID]
        var waiting: Set<ImageID>
        var fulfilled: Set<ImageID> = []
        var arrived: [(id: ImageID, likeness: Likeness)] = []
        var landed: (@MainActor ([ImageID]) -> Void)?
        var drop: Set<ImageID> { Set(order) }
    }

    /// The image of `placeholder` arrived (with its likeness) or did not: once its drop's last has, whoever asked
    /// hears which landed, and each arrived one is looked for among the library's other images.
    private func settleLikeness(of placeholder: ImageID, _ likeness: Likeness?) {
        guard let key = checkOfPlaceholder.removeValue(forKey: placeholder) else { return }
        likenessChecks[key]?.waiting.remove(placeholder)
        if let likeness { likenessChecks[key]?.arrived.append((placeholder, likeness)) }
        guard let check = likenessChecks[key], check.waiting.isEmpty else { return }
        likenessChecks[key] = nil
        if let landed = check.landed, !check.fulfilled.isEmpty {
            // After the arrived images take their places: those waiting for the next frame are placed first.
            MainContext.post { [weak self] in
                guard let self else { return }
                placeArrivedImages()
                let ids = check.order.filter { check.fulfilled.contains($0) && library.holds($0) }
                if !ids.isEmpty { landed(ids) }
            }
        }
        guard let likenessIndex, !check.arrived.isEmpty else { return }
        let answers = Answers()
        for (id, likeness) in check.arrived {
            likenessIndex.nearDuplicates(of: likeness, excluding: check.drop) { [weak self] found in
                answers.count += 1
                if let existing = found.first?.id { answers.alike.append((id, existing)) }
                guard answers.count == check.arrived.count else { return }
                self?.tellAlike(answers.alike, of: check)
            }
        }
    }

    /// The look-ups of one drop answered so far, and the images found alike.
    private final class Answers {
        var count = 0
        var alike: [(dropped: ImageID, existing: ImageID)] = []
    }

    private func tellAlike(_ alike: [(dropped: ImageID, existing: ImageID)], of check: LikenessCheck) {
        // The gallery the drop's images are in now: the user may have moved them meanwhile.
        guard let first = alike.first, let (galleryID, _) = library.location(of: first.dropped) else { return }
        if check.drop.count == 1 {
            onLooksLike(first.existing, first.dropped, galleryID)
        } else {
            onSomeLookLike(alike.count, check.drop.count, galleryID)
        }
    }

    /// Places the arrived images on the next pass of the main loop, or a frame after they were last placed.
    private func schedulePlacing() {
        let wait = lastPlaced + Self.frameMicroseconds - MainContext.monotonicMicroseconds
        guard wait > 0 else { return MainContext.post { [weak self] in self?.placeArrivedImages() } }
        MainContext.after(milliseconds: UInt32((wait + 999) / 1000)) { [weak self] in self?.placeArrivedImages() }
    }

    private func placeArrivedImages() {
        guard !arrived.isEmpty else { return }
        lastPlaced = MainContext.monotonicMicroseconds
        let images = arrived
        arrived = []
        library.fulfillPlaceholders(images)
    }
}
