import Foundation
import GalleryCore
import GtkKit

/// Brings dropped images in: downloads (with progress) or reads them on workers, checks that they
/// decode, caches the bytes, and turns each placeholder into its image wherever it stands by then,
/// in whichever gallery it waits, shown or not. When the URL fails but the drag carried the
/// bytes, those are used. One for the app: closing a window does not stop its drops.
@MainActor
final class DropDownloader {
    private let library: GalleryLibrary
    private let loader: ImageLoader
    private let importsDirectory: URL
    /// Short jobs: reading folders and files, starting downloads, keeping what they brought. No
    /// thread waits for a server (HTTPClient's transfer thread runs every download), so 100 images
    /// dropped at once from a server that takes a second each all ask at once and land together.
    private let pool = WorkerPool(threads: 4, name: "drop-import")
    /// The transfers still running, by placeholder: deleting a placeholder (or its gallery) stops its download.
    private var cancellations: [ImageID: DownloadCancellation] = [:]
    private var observation: Observation?
    /// The decode rank of the next dropped image: the images of a drop decode in its order, and
    /// after those of earlier drops.
    private var nextRank = 0
    /// Images downloaded since the main loop last placed them.
    private var arrived: [(placeholder: ImageID, image: GalleryImage)] = []
    /// A drop into `galleryID` could not be added: someone showing it says why.
    var onFailure: (_ message: String, _ galleryID: String) -> Void = { _, _ in }
    /// The display's scale factor: dropped images are decoded for it.
    var scaleFactor = 1

    init(library: GalleryLibrary, loader: ImageLoader, importsDirectory: URL) {
        self.library = library
        self.loader = loader
        self.importsDirectory = importsDirectory
        observation = library.observe { [weak self] change in
            guard case .placeholdersDiscarded(let ids) = change else { return }
            for id in ids { self?.cancellations.removeValue(forKey: id)?.cancel() }
        }
    }

    /// Starts every image; the first fills `placeholder`, the others get placeholders right after
    /// it, and together they are one undo step. Folders (dropped from Files, or chosen) are listed
    /// first, off the main loop: their images take their place, in name order.
    func start(_ images: [DroppedImage], placeholder: ImageID) {
        guard images.contains(where: LocalFiles.isLocalFile) else {
            fetchAll(images, placeholder: placeholder)
            return
        }
        let imageExtensions = LocalFiles.imageExtensions
        pool.submit {
            let listing = LocalFiles.expand(images, imageExtensions: imageExtensions)
            MainContext.post { [weak self] in self?.listed(listing, placeholder: placeholder) }
        }
    }

    private func listed(_ listing: LocalFiles.Listing, placeholder: ImageID) {
        // Deleted while the folder was read: nobody waits for it any more.
        guard let (galleryID, _) = library.location(of: placeholder) else { return }
        if let message = listing.message { onFailure(message, galleryID) }
        guard !listing.images.isEmpty else {
            library.discardPlaceholder(placeholder)
            return
        }
        fetchAll(listing.images, placeholder: placeholder)
    }

    private func fetchAll(_ images: [DroppedImage], placeholder: ImageID) {
        if let first = images.first { library.relabelPlaceholder(placeholder, label: Self.label(for: first)) }
        var placeholders = [placeholder]
        if images.count > 1, let (galleryID, index) = library.location(of: placeholder),
           let others = library.insertPlaceholders(in: galleryID, at: index + 1, labels: images.dropFirst().map(Self.label)) {
            placeholders += others
        }
        library.groupArrivals(placeholders)
        // One hand-over for all: each wake-up of a worker could take the core from the window.
        // The pool runs the last job first: reversed, the first images (where the drop landed, on
        // screen) start first.
        let firstRank = nextRank
        nextRank += placeholders.count
        let jobs = zip(images, placeholders).enumerated().reversed().map { offset, imageAndPlaceholder in
            let (image, placeholder) = imageAndPlaceholder
            return fetch(image, into: placeholder, rank: firstRank + offset)
        }
        MainContext.after(milliseconds: Self.startDelay) { [pool] in pool.submit(jobs) }
    }

    /// How long the workers wait before they start a drop's images: the window's thread has just
    /// spent ~3 ms on the drop, and a hundred connections opening (~4 ms of kernel work on the
    /// transfer thread) right then held it off a core up to 10 ms, as the scheduler evened out
    /// the process's share. Apart, neither waits: drop part, 40 quiet drops each, the window's
    /// thread's waits for a core over 2 ms in the first 0.1 s went from 14 to 1; all landed 0.05 s later.
    private static let startDelay: UInt32 = 50

    private static func label(for image: DroppedImage) -> String {
        image.url.map { GalleryImage(url: $0, aspectRatio: 1).label } ?? tr("image")
    }

    /// The job that starts bringing `image` into `placeholder`, for the pool.
    private func fetch(_ image: DroppedImage, into placeholder: ImageID, rank: Int) -> WorkerPool.Job {
        let cancellation = DownloadCancellation()
        cancellations[placeholder] = cancellation
        let label = Self.label(for: image)
        let transfer = DropTransfer(
            image: image, scale: scaleFactor, rank: rank, importsDirectory: importsDirectory, loader: loader,
            pool: pool, cancellation: cancellation,
            progress: { fraction in
                MainContext.post { [weak self] in self?.library.updatePlaceholder(placeholder, progress: fraction) }
            },
            done: { result in MainContext.post { [weak self] in self?.finish(placeholder, label: label, result) } })
        return transfer.job(attempting: 0, firstFailure: nil)
    }

    /// Bytes with no address of their own are kept in the app's data folder and recorded by file URL.
    nonisolated static func keep(_ bytes: Data, mimeType: String?, in directory: URL) -> URL? {
        let type = mimeType ?? DropPayload.sniffImageType(Array(bytes.prefix(64)))
        let ext = type.flatMap { $0.split(separator: "/").last.map(String.init) } ?? "img"
        let file = directory.appendingPathComponent("\(Checksum.sha256(bytes.base64EncodedString())).\(ext)")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            if !FileManager.default.fileExists(atPath: file.path) { try bytes.write(to: file, options: .atomic) }
            return file
        } catch {
            return nil
        }
    }

    private func finish(_ placeholder: ImageID, label: String, _ result: Result<(url: String, decoded: DecodedImage), LoadFailure>) {
        cancellations[placeholder] = nil
        switch result {
        case .success(let (url, decoded)):
            let ratio = Double(decoded.originalWidth) / Double(max(decoded.originalHeight, 1))
            loader.insert(decoded, for: placeholder)
            // Transfers started together end together: the images that arrived in one pass of the
            // main loop take their places in one change, laid out and saved once.
            if arrived.isEmpty { MainContext.post { [weak self] in self?.placeArrivedImages() } }
            arrived.append((placeholder, GalleryImage(id: placeholder, url: url, aspectRatio: ratio)))
        case .failure(let failure):
            // Gone already (deleted, or its gallery was): nobody waits for the message.
            guard let (galleryID, _) = library.location(of: placeholder) else { return }
            library.discardPlaceholder(placeholder)
            onFailure(tr("Couldn’t add “{image}”: {reason}", ["image": label, "reason": failure.description]), galleryID)
        }
    }

    private func placeArrivedImages() {
        let images = arrived
        arrived = []
        library.fulfillPlaceholders(images)
    }
}

/// One dropped image on its way. Each of its addresses in turn is fetched (a download holds no
/// thread) and decoded on the loader's decode threads, so a hundred transfers ending together
/// decode on every core but one; the first address that gives a picture wins, else the bytes
/// the drag carried.
private struct DropTransfer: Sendable {
    typealias Outcome = Result<(url: String, decoded: DecodedImage), LoadFailure>

    let image: DroppedImage
    let scale: Int
    /// Its turn among dropped images on the decode threads.
    let rank: Int
    let importsDirectory: URL
    let loader: ImageLoader
    let pool: WorkerPool
    let cancellation: DownloadCancellation
    let throttle = ProgressThrottle()
    let progress: @Sendable (Double) -> Void
    let done: @Sendable (Outcome) -> Void

    /// Tries the address at `index`: the dragged address first, then other addresses of the same
    /// image (a srcset's original, the thumbnail behind a search result); the first failure is the one told.
    func job(attempting index: Int, firstFailure: LoadFailure?) -> WorkerPool.Job {
        let addresses = [image.url].compactMap { $0 } + image.alternateURLs
        let url = addresses.indices.contains(index) ? addresses[index] : nil
        let source = loader.bytesSource
        return WorkerPool.Job { [self] in
            guard !cancellation.isCancelled else { return }
            guard let url else { return fallBack(firstFailure ?? LoadFailure(description: tr("no address"))) }
            source.fetch(url, cancellation: cancellation, finishingOn: pool, progress: { [self] received, expected in
                guard let expected, expected > 0 else { return true }
                let fraction = Double(received) / Double(expected)
                if throttle.shouldReport(fraction) { progress(fraction) }
                return true
            }, then: { [self] fetched in
                if cancellation.isCancelled { return }
                switch fetched {
                case .failure(let failure):
                    source.removeCached(url)
                    pool.submit([job(attempting: index + 1, firstFailure: firstFailure ?? failure)])
                case .success(let bytes):
                    decode(bytes, from: url, attempt: index, firstFailure: firstFailure)
                }
            })
        }
    }

    private func decode(_ bytes: Data, from url: String, attempt index: Int, firstFailure: LoadFailure?) {
        loader.decodeDropped(url, bytes: bytes, scale: scale, rank: rank) { [self] decoded in
            switch decoded {
            case .success(let decoded):
                // An embedded image is kept as a file: the state file stays small.
                let kept = url.hasPrefix("data:") ? DropDownloader.keep(bytes, mimeType: nil, in: importsDirectory) : nil
                done(.success((kept?.absoluteString ?? url, decoded)))
            case .failure(let failure):
                // Whatever the server sent instead of an image is not worth keeping.
                loader.bytesSource.removeCached(url)
                pool.submit([job(attempting: index + 1, firstFailure: firstFailure ?? failure)])
            }
        }
    }

    /// Every address failed, but the drag may have carried the image itself.
    private func fallBack(_ failure: LoadFailure) {
        guard let bytes = image.fallbackBytes else { return done(.failure(failure)) }
        loader.decodeDropped(image.url ?? "", bytes: bytes, scale: scale, rank: rank) { [self] decoded in
            guard case .success(let decoded) = decoded else { return done(.failure(failure)) }
            if let url = image.url, url.hasPrefix("http") {
                loader.bytesSource.store(bytes, for: url)
                done(.success((url, decoded)))
            } else if let file = DropDownloader.keep(bytes, mimeType: image.mimeType, in: importsDirectory) {
                done(.success((file.absoluteString, decoded)))
            } else {
                done(.failure(failure))
            }
        }
    }
}

/// Lets through whole-percent steps at most ten times a second, and the end, so a hundred
/// transfers at once do not flood the GUI thread. Used by the one thread that runs a transfer.
private final class ProgressThrottle: @unchecked Sendable {
    private var last = -1.0
    private var lastTime = 0.0

    func shouldReport(_ fraction: Double) -> Bool {
        let now = ProcessInfo.processInfo.systemUptime
        let finished = fraction >= 1 && last < 1
        guard finished || (fraction - last >= 0.01 && now - lastTime >= 0.1) else { return false }
        last = fraction
        lastTime = now
        return true
    }
}
