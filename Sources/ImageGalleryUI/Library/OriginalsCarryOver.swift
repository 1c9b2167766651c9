import Foundation
import GLibKit
import GalleryCore
import GalleryIO

/// Brings a library of the previous layout into the library's originals, at launch and in the background:
/// each web image without a kept original gets its bytes from the cache (or, when they are gone from it,
/// from its address again), kept and recorded as it goes (saved image by image, so a kill midway loses
/// nothing and the next launch carries on); bytes imported into the old `imported/` folder move too, and
/// are recorded by their kept file. An image whose source no longer answers keeps its address and is
/// tried again at the next launch.
@MainActor
final class OriginalsCarryOver {
    /// How far it got: images carried over (or failed) of `total`, and the labels of those that failed.
    struct Progress: Equatable {
        var done = 0
        var total = 0
        var failed: [String] = []
        var isFinished: Bool { done == total }
    }

    /// Images fetched at once: enough to keep a slow server's wait short, few enough to leave the window's loads room.
    private static let parallelFetches = 4

    private let library: GalleryLibrary
    private let source: ImageBytesSource
    private let importsDirectory: URL
    private let cancellation = CancellationToken()
    private var waiting: ArraySlice<GalleryImage> = []
    /// The images being fetched, each with its own cancellation: one deleted meanwhile stops its download.
    private var running: [ImageID: CancellationToken] = [:]
    private var observation: Observation?
    /// The cells of every gallery at the last change: only when there are fewer can an image have gone.
    private var cellCount = 0
    private(set) var progress = Progress()
    var onProgress: (Progress) -> Void = { _ in }

    init(library: GalleryLibrary, source: ImageBytesSource, importsDirectory: URL) {
        self.library = library
        self.source = source
        self.importsDirectory = importsDirectory
        observation = library.observe { [weak self] change in
            switch change {
            case .cells, .galleries: self?.stopRemoved()
            case .progress, .placeholdersDiscarded, .history: break
            }
        }
    }

    func start(_ images: [GalleryImage]) {
        waiting = images[...]
        progress = Progress(total: images.count)
        cellCount = libraryCellCount
        fillSlots()
        if running.isEmpty { onProgress(progress) }
    }

    func cancel() {
        cancellation.cancel()
        for image in running.values { image.cancel() }
    }

    /// The images no gallery holds any more (deleted; an undo brings them back for the next launch to carry) are
    /// not fetched: a download nobody waits for frees its connection.
    private func stopRemoved() {
        let count = libraryCellCount
        defer { cellCount = count }
        guard count < cellCount else { return }
        for (id, image) in running where library.location(of: id) == nil { image.cancel() }
    }

    private var libraryCellCount: Int { library.galleries.reduce(0) { $0 + library.cells(of: $1.id).count } }

    private func fillSlots() {
        while running.count < Self.parallelFetches, let image = waiting.popFirst() {
            guard library.location(of: image.id) != nil else {
                progress.done += 1
                continue
            }
            let imageCancellation = CancellationToken()
            running[image.id] = imageCancellation
            carry(image, cancellation: imageCancellation)
        }
    }

    private func carry(_ image: GalleryImage, cancellation: CancellationToken) {
        CarryOver.keep(image, source: source, importsDirectory: importsDirectory, cancellation: cancellation) {
            outcome in
            MainContext.post { [weak self] in self?.finished(image, outcome) }
        }
    }

    private func finished(_ image: GalleryImage, _ outcome: Result<CarryOver.Kept, LoadFailure>) {
        let removed = running.removeValue(forKey: image.id)?.isCancelled == true
        guard !cancellation.isCancelled else { return }
        switch outcome {
        case .success(let (original, url, likeness)):
            library.recordOriginal(original, of: image.id, url: url, likeness: likeness)
        // Its name looked public, yet it leads into the user's network: it waits for the user's word, not an error.
        case .failure(let failure) where failure.isOnLocalNetwork: break
        case .failure where !removed: progress.failed.append(image.label)
        case .failure: break
        }
        progress.done += 1
        fillSlots()
        onProgress(progress)
    }
}
