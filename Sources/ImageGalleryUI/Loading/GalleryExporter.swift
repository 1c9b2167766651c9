import Foundation
import GalleryCore
import GtkKit

/// Writes a gallery as a folder a person can use without this app (see GalleryExport): into a
/// hidden folder beside the target first, renamed into place only when every file is on the
/// disk; a cancelled or failed export removes it, so nothing half-written is ever left. Images
/// come from the cache, the disk or the network (ImageBytesSource) on worker threads.
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
        fileprivate let cancellation = DownloadCancellation()
        func cancel() { cancellation.cancel() }
    }

    private let bytesSource: ImageBytesSource
    /// Reads and downloads run side by side; files are small next to what a disk writes a second.
    private let pool = WorkerPool(threads: 8, name: "export")

    init(bytesSource: ImageBytesSource) { self.bytesSource = bytesSource }

    /// Exports `gallery` into a new folder in `parent`. `progress` hears how many images are done,
    /// `completion` how it ended; both on the main loop.
    func export(_ gallery: Gallery, into parent: URL, fallbackName: String,
                progress: @escaping @MainActor (_ done: Int, _ total: Int) -> Void,
                completion: @escaping @MainActor (Outcome) -> Void) -> Job {
        let job = Job()
        let run = ExportRun(gallery: gallery, parent: parent, fallbackName: fallbackName, job: job, bytesSource: bytesSource,
                            pool: pool, progress: progress)
        // The run waits for its images: a thread of its own, not one of the pool's.
        Thread {
            let outcome = run.perform()
            MainContext.post { completion(outcome) }
        }.start()
        return job
    }
}

/// One export's work, on worker threads.
private final class ExportRun: @unchecked Sendable {
    private let gallery: Gallery
    private let parent: URL
    private let fallbackName: String
    private let job: GalleryExporter.Job
    private let bytesSource: ImageBytesSource
    private let pool: WorkerPool
    private let progress: @MainActor (Int, Int) -> Void

    private let lock = NSLock()
    private var files: [String?]  // guarded by lock
    private var done = 0  // guarded by lock
    private var missing = 0  // guarded by lock
    private var missingReason: String?  // guarded by lock
    private var writeError: FileError?  // guarded by lock
    private var lastReport = 0  // guarded by lock

    init(gallery: Gallery, parent: URL, fallbackName: String, job: GalleryExporter.Job, bytesSource: ImageBytesSource,
         pool: WorkerPool, progress: @escaping @MainActor (Int, Int) -> Void) {
        self.gallery = gallery
        self.parent = parent
        self.fallbackName = fallbackName
        self.job = job
        self.bytesSource = bytesSource
        self.pool = pool
        self.progress = progress
        files = Array(repeating: nil, count: gallery.images.count)
    }

    private static let temporaryPrefix = ".image-gallery-export-"

    func perform() -> GalleryExporter.Outcome {
        removeAbandonedExports()
        let temporary = parent.appendingPathComponent(Self.temporaryPrefix + UUID().uuidString.prefix(8).lowercased())
        do throws(FileError) {
            try LocalFile.makeDirectory(temporary.path)
        } catch {
            return .failed(reason: error.description)
        }
        let outcome = fill(temporary)
        if case .exported = outcome { return outcome }
        try? FileManager.default.removeItem(at: temporary)
        return outcome
    }

    /// An export the app could not finish (it was killed, the computer went off) left its hidden
    /// folder: one untouched for a day is gone for good. A running export writes all the time.
    private func removeAbandonedExports() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
        for name in names where name.hasPrefix(Self.temporaryPrefix) {
            let folder = parent.appendingPathComponent(name)
            let modified = (try? FileManager.default.attributesOfItem(atPath: folder.path)[.modificationDate]) as? Date
            if let modified, modified < Date(timeIntervalSinceNow: -86_400) { try? FileManager.default.removeItem(at: folder) }
        }
    }

    /// Writes every image and the manifest into `temporary`, then renames it into place.
    private func fill(_ temporary: URL) -> GalleryExporter.Outcome {
        let images = gallery.images
        let group = DispatchGroup()
        for (position, image) in images.enumerated() {
            group.enter()
            pool.submit { [self] in
                defer { group.leave() }
                write(image, at: position, into: temporary)
            }
        }
        group.wait()
        if let error = lock.withLock({ writeError }) { return .failed(reason: error.description) }
        if job.cancellation.isCancelled { return .cancelled }
        let manifest = ExportManifest(name: gallery.name, images: zip(images, lock.withLock { files }).map { image, file in
            ExportManifest.Image(file: file, url: image.url, aspectRatio: image.aspectRatio)
        })
        do {
            let manifestPath = temporary.appendingPathComponent(GalleryExport.manifestFileName).path
            try FileWriter.document.write(manifest.encoded(), to: manifestPath, policy: .createInPlace)
            return try moveIntoPlace(temporary)
        } catch let error as FileError {
            return .failed(reason: error.description)
        } catch {
            return .failed(reason: String(describing: error))
        }
    }

    private func moveIntoPlace(_ temporary: URL) throws(FileError) -> GalleryExporter.Outcome {
        FileWriter.syncFolder(temporary.path)
        var taken = Set((try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? [])
        while true {
            let name = GalleryExport.folderName(for: gallery.name, taken: taken, fallback: fallbackName)
            let folder = parent.appendingPathComponent(name, isDirectory: true)
            do throws(FileError) {
                try LocalFile.renameNoReplace(temporary.path, to: folder.path)
            } catch {
                guard error.code == EEXIST || error.code == ENOTEMPTY else { throw error }
                // Someone made a folder of that name meanwhile: the next number.
                taken.insert(name)
                continue
            }
            FileWriter.syncFolder(parent.path)
            let (missingCount, reason) = lock.withLock { (self.missing, self.missingReason) }
            return .exported(folder: folder, missing: missingCount, reason: reason)
        }
    }

    private func write(_ image: GalleryImage, at position: Int, into folder: URL) {
        guard !job.cancellation.isCancelled else { return }
        switch bytesSource.bytes(for: image.url, cancellation: job.cancellation) {
        case .success(let data):
            guard !job.cancellation.isCancelled else { return }
            let type = DropPayload.sniffImageType(Array(data.prefix(4096)))
            let ext = type.flatMap(GalleryExport.fileExtension(forMIMEType:)) ?? GalleryExport.labelExtension(image.label) ?? ""
            let name = GalleryExport.fileName(position: position, count: gallery.images.count, label: image.label, fileExtension: ext)
            do throws(FileError) {
                let path = folder.appendingPathComponent(name).path
                try FileWriter.document.write(data, to: path, policy: .createInPlace)
                lock.withLock { files[position] = name }
            } catch {
                // The disk is full or went read-only: the export stops here.
                lock.withLock { if writeError == nil { writeError = error } }
                job.cancel()
                return
            }
        case .failure(let failure):
            guard !job.cancellation.isCancelled else { return }
            lock.withLock {
                missing += 1
                if missingReason == nil { missingReason = failure.description }
            }
        }
        report()
    }

    /// At most one report per 1/20 s of progress, and the last.
    private func report() {
        let now = MainContext.monotonicMicroseconds
        let (count, shouldReport): (Int, Bool) = lock.withLock {
            done += 1
            let due = now - lastReport > 50_000 || done == gallery.images.count
            if due { lastReport = now }
            return (done, due)
        }
        guard shouldReport else { return }
        let total = gallery.images.count
        let progress = progress
        MainContext.post { progress(count, total) }
    }
}
