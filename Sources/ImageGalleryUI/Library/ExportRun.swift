import Foundation
import GLibKit
import GalleryCore
import GalleryIO
import Synchronization

/// One export's work, as background jobs: a few images fetched at a time, each written as it arrives
/// with its XMP sidecar, then the manifest, then the folder renamed into place.
final class ExportRun: Sendable {
    private let gallery: Gallery
    private let parent: URL
    private let fallbackName: String
    private let job: GalleryExporter.Job
    private let bytesSource: ImageBytesSource
    private let progress: @Sendable @MainActor (Int, Int) -> Void
    private let completion: @Sendable @MainActor (GalleryExporter.Outcome) -> Void

    private struct State {
        var temporary: URL?
        var files: [String?]
        var nextPosition = 0
        var done = 0
        var missing = 0
        var missingReason: String?
        var writeError: FileError?
        var lastReport = 0
    }

    private let state: Mutex<State>

    /// Images fetched at once: enough to overlap a slow server with the disk, few enough to bound
    /// the bytes held in memory.
    private static let imagesAtOnce = 8
    private static let temporaryPrefix = ".image-gallery-export-"

    init(
        gallery: Gallery, parent: URL, fallbackName: String, job: GalleryExporter.Job,
        bytesSource: ImageBytesSource, progress: @escaping @MainActor (Int, Int) -> Void,
        completion: @escaping @MainActor (GalleryExporter.Outcome) -> Void
    ) {
        self.gallery = gallery
        self.parent = parent
        self.fallbackName = fallbackName
        self.job = job
        self.bytesSource = bytesSource
        self.progress = progress
        self.completion = completion
        state = Mutex(State(files: Array(repeating: nil, count: gallery.images.count)))
    }

    func start() {
        bytesSource.scheduler.submit(.io, .background) { [self] in
            removeAbandonedExports()
            let temporary = parent.appendingPathComponent(
                Self.temporaryPrefix + UUID().uuidString.prefix(8).lowercased())
            do throws(FileError) {
                try LocalFile.makeDirectory(temporary.path)
            } catch {
                return complete(.failed(reason: error.description))
            }
            state.withLock { $0.temporary = temporary }
            guard !gallery.images.isEmpty else { return finish(temporary) }
            for _ in 0..<Self.imagesAtOnce { fetchNext(into: temporary) }
        }
    }

    /// An export the app could not finish (it was killed, the computer went off) left its hidden
    /// folder: one untouched for a day is gone for good. A running export writes all the time.
    private func removeAbandonedExports() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
        for name in names where name.hasPrefix(Self.temporaryPrefix) {
            let folder = parent.appendingPathComponent(name)
            let modified = (try? FileManager.default.attributesOfItem(atPath: folder.path)[.modificationDate]) as? Date
            if let modified, modified < Date(timeIntervalSinceNow: -86_400) {
                try? FileManager.default.removeItem(at: folder)
            }
        }
    }

    private func fetchNext(into folder: URL) {
        let position: Int? = state.withLock { state in
            guard state.nextPosition < gallery.images.count else { return nil }
            defer { state.nextPosition += 1 }
            return state.nextPosition
        }
        guard let position else { return }
        let image = gallery.images[position]
        bytesSource.fetch(
            image.url, sha256: image.original?.sha256, priority: .background, cancellation: job.cancellation
        ) { [self] fetched in
            write(fetched, of: image, at: position, into: folder)
            let finished = state.withLock { state in
                state.done += 1
                return state.done == gallery.images.count
            }
            if finished { finish(folder) } else { fetchNext(into: folder) }
        }
    }

    private func write(_ fetched: Result<Data, LoadFailure>, of image: GalleryImage, at position: Int, into folder: URL)
    {
        guard !job.cancellation.isCancelled else { return }
        // Bytes that are no image (a file another computer's `file://` address names) are left out, and counted.
        let fetched = fetched.flatMap { data in
            OutgoingImageFile.mayLeave(data.prefix(4096))
                ? .success(data) : .failure(LoadFailure(description: OutgoingImageFile.refusal))
        }
        switch fetched {
        case .success(let data):
            let type = ImageFormat.sniff(data)?.mimeType
            let ext =
                type.flatMap(ImageFormat.fileExtension(forMIMEType:)) ?? GalleryExport.labelExtension(image.label)
                ?? ""
            let name = GalleryExport.fileName(
                position: position, count: gallery.images.count, label: image.label, fileExtension: ext)
            do throws(FileError) {
                // The bytes as they came, never decoded and encoded again.
                let path = folder.appendingPathComponent(name).path
                try FileWriter.document.write(data, to: path, policy: .createInPlace)
                try writeSidecar(of: image, mediaType: type, beside: name, in: folder)
                state.withLock { $0.files[position] = name }
            } catch {
                // The disk is full or went read-only: the export stops here.
                state.withLock { if $0.writeError == nil { $0.writeError = error } }
                job.cancel()
                return
            }
        case .failure(let failure):
            state.withLock { state in
                state.missing += 1
                if state.missingReason == nil { state.missingReason = failure.description }
            }
        }
        report()
    }

    /// The image's XMP sidecar (see ExportSidecar), for image managers to show where it came from.
    private func writeSidecar(of image: GalleryImage, mediaType: String?, beside fileName: String, in folder: URL)
        throws(FileError)
    {
        guard let name = GalleryExport.sidecarName(forFile: fileName),
            let packet = XMPPacket.sidecar(ExportSidecar(image: image, mediaType: mediaType))
        else { return }
        try FileWriter.document.write(packet, to: folder.appendingPathComponent(name).path, policy: .createInPlace)
    }

    /// At most one report per 1/20 s of progress, and the last.
    private func report() {
        let now = MainContext.monotonicMicroseconds
        let total = gallery.images.count
        let (count, due): (Int, Bool) = state.withLock { state in
            let due = now - state.lastReport > 50_000 || state.done + 1 == total
            if due { state.lastReport = now }
            return (state.done + 1, due)
        }
        guard due else { return }
        let progress = progress
        MainContext.post { progress(count, total) }
    }

    /// Every image is in (or missing): the manifest, then the folder into place; or, after a failure or
    /// a cancel, the folder removed.
    private func finish(_ temporary: URL) {
        let outcome = outcome(writing: temporary)
        if case .exported = outcome {} else { try? FileManager.default.removeItem(at: temporary) }
        complete(outcome)
    }

    private func outcome(writing temporary: URL) -> GalleryExporter.Outcome {
        let (files, writeError) = state.withLock { ($0.files, $0.writeError) }
        if let writeError { return .failed(reason: writeError.description) }
        if job.cancellation.isCancelled { return .cancelled }
        let manifest = ExportManifest(
            name: gallery.name,
            images: zip(gallery.images, files).map { image, file in ExportManifest.Image(image, file: file) })
        do throws(FileError) {
            let manifestPath = temporary.appendingPathComponent(GalleryExport.manifestFileName).path
            try FileWriter.document.write(manifest.encoded(), to: manifestPath, policy: .createInPlace)
            return try moveIntoPlace(temporary)
        } catch {
            return .failed(reason: error.description)
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
            let (missing, reason) = state.withLock { ($0.missing, $0.missingReason) }
            return .exported(folder: folder, missing: missing, reason: reason)
        }
    }

    private func complete(_ outcome: GalleryExporter.Outcome) {
        let completion = completion
        MainContext.post { completion(outcome) }
    }
}
