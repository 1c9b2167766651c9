import Foundation
import GalleryCore
import GalleryIO

/// Writes a gallery as a folder a person can use without this app (see GalleryExport): into a
/// hidden folder beside the target first, renamed into place only when every file is on the
/// disk; a cancelled or failed export removes it, so nothing half-written is ever left. Images
/// come from the cache, the disk or the network (ImageBytesSource), as background work.
@MainActor
final class GalleryExporter {
    enum Outcome: Sendable {
        /// `missing`: images that could not be had (a download failed), with the first reason.
        case exported(folder: URL, missing: Int, reason: String?)
        case cancelled
        case failed(reason: String)
    }

    /// One export under way; `cancel()` stops it and removes what it wrote.
    final class Job: Sendable {
        let cancellation = CancellationToken()
        func cancel() { cancellation.cancel() }
    }

    private let bytesSource: ImageBytesSource

    init(bytesSource: ImageBytesSource) { self.bytesSource = bytesSource }

    /// Exports `gallery` into a new folder in `parent`. `progress` hears how many images are done,
    /// `completion` how it ended; both on the main loop.
    func export(
        _ gallery: Gallery, into parent: URL, fallbackName: String,
        progress: @escaping @MainActor (_ done: Int, _ total: Int) -> Void,
        completion: @escaping @MainActor (Outcome) -> Void
    ) -> Job {
        let job = Job()
        let run = ExportRun(
            gallery: gallery, parent: parent, fallbackName: fallbackName, job: job, bytesSource: bytesSource,
            progress: progress, completion: completion)
        run.start()
        return job
    }
}
