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

    /// Images fetched at once: enough to keep a slow server's wait short, few enough to leave the window's own loads room.
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

    /// The images of `state` that have no kept original yet and can get one: web images, and bytes imported before.
    nonisolated static func pending(in state: GalleryState, importsDirectory: URL) -> [GalleryImage] {
        let importsPath = importsDirectory.standardizedFileURL.path + "/"
        return state.galleries.flatMap(\.images).filter { image in
            guard image.original == nil, let url = URL(string: image.url), let scheme = url.scheme?.lowercased()
            else { return false }
            return scheme == "http" || scheme == "https"
                || (scheme == "file" && url.standardizedFileURL.path.hasPrefix(importsPath))
        }
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
        let store = source.originals
        let importsPath = importsDirectory.standardizedFileURL.path + "/"
        // Background: the cells the window shows are loaded first; a cached download is read, not fetched.
        source.fetch(image.url, priority: .background, cancellation: cancellation) { fetched in
            let outcome: Result<(KeptOriginal, String?), LoadFailure> = fetched.flatMap { data in
                // Whatever the server now sends instead of an image is not kept.
                guard let format = ImageFormat.sniff(data.prefix(4096)) else {
                    return .failure(LoadFailure(description: tr("not an image")))
                }
                let sha256: String
                do throws(FileError) {
                    sha256 = try store.keep(data)
                } catch {
                    return .failure(LoadFailure(description: error.description))
                }
                let header = ImageHeader.read(data)
                let original = KeptOriginal(
                    sha256: sha256, byteCount: data.count, pixelWidth: header?.width ?? 0,
                    pixelHeight: header?.height ?? 0, format: format.name.lowercased())
                // An old import is recorded by its kept file: the old one goes at a later launch.
                let isImport =
                    URL(string: image.url).map { $0.isFileURL && $0.standardizedFileURL.path.hasPrefix(importsPath) }
                    ?? false
                let url = isImport ? store.path(for: sha256).flatMap(FileURI.from(path:)) : nil
                return .success((original, url))
            }
            MainContext.post { [weak self] in self?.finished(image, outcome) }
        }
    }

    private func finished(_ image: GalleryImage, _ outcome: Result<(KeptOriginal, String?), LoadFailure>) {
        running -= 1
        guard !cancellation.isCancelled else { return }
        switch outcome {
        case .success(let (original, url)): library.recordOriginal(original, of: image.id, url: url)
        case .failure: progress.failed.append(image.label)
        }
        progress.done += 1
        onProgress(progress)
        fillSlots()
    }
}
