import Foundation
import GalleryCore
import GalleryIO
import GtkKit

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
    private var running = 0
    private(set) var progress = Progress()
    var onProgress: (Progress) -> Void = { _ in }

    init(library: GalleryLibrary, source: ImageBytesSource, importsDirectory: URL) {
        self.library = library
        self.source = source
        self.importsDirectory = importsDirectory
    }

    func start(_ images: [GalleryImage]) {
        waiting = images[...]
        progress = Progress(total: images.count)
        fillSlots()
    }

    func cancel() { cancellation.cancel() }

    private func fillSlots() {
        while running < Self.parallelFetches, let image = waiting.popFirst() {
            running += 1
            carry(image)
        }
    }

    private func carry(_ image: GalleryImage) {
        CarryOver.keep(image, source: source, importsDirectory: importsDirectory, cancellation: cancellation) {
            outcome in
            MainContext.post { [weak self] in self?.finished(image, outcome) }
        }
    }

    private func finished(_ image: GalleryImage, _ outcome: Result<CarryOver.Kept, LoadFailure>) {
        running -= 1
        guard !cancellation.isCancelled else { return }
        switch outcome {
        case .success(let (original, url)): library.recordOriginal(original, of: image.id, url: url)
        // Its name looked public, yet it leads into the user's network: it waits for the user's word, not an error.
        case .failure(let failure) where failure.isOnLocalNetwork: break
        case .failure: progress.failed.append(image.label)
        }
        progress.done += 1
        onProgress(progress)
        fillSlots()
    }
}
