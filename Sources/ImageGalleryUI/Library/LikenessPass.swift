import Foundation
import GLibKit
import GalleryCore
import GalleryIO

/// Measures, at launch and in the background, the likeness of each image of a library from before likenesses were
/// kept: read from its kept original or its file (or the thumbnail left of it), on the CPU lane at background
/// priority, a couple at a time, so the cells a window shows load first. What is measured is recorded every half
/// second, where search and More Like This find it, and saved once a minute (a save writes the whole library, which
/// holds the GTK thread a while), at the end and at quit, so a crash midway loses little and the next launch carries
/// on with the rest.
@MainActor
final class LikenessPass {
    /// How far it got: images measured (or that could not be) of `total`.
    struct Progress: Equatable {
        var done = 0
        var total = 0
        var isFinished: Bool { done == total }
    }

    /// An image to measure, and where it stood when the pass began.
    struct Pending: Sendable {
        var id: ImageID
        var galleryID: String
        var cellIndex: Int
        var url: String
        var sha256: String?
    }

    /// Pictures measured at once: one for each core, at the lowest priority.
    private static let parallelMeasures = 2
    private static let recordInterval: UInt32 = 500
    private static let saveIntervalMicroseconds = 60_000_000

    private let library: GalleryLibrary
    private let pipeline: ImagePipeline
    private let cancellation = CancellationToken()
    private var waiting: ArraySlice<Pending> = []
    private var running = 0
    private var measured: [(id: ImageID, galleryID: String, cellIndex: Int, likeness: Likeness)] = []
    private var recordTimer: UInt32 = 0
    /// Whether likenesses were recorded since the last save, and when that was.
    private var unsaved = false
    private var savedAt = MainContext.monotonicMicroseconds
    private(set) var progress = Progress()
    var onProgress: (Progress) -> Void = { _ in }

    init(library: GalleryLibrary, pipeline: ImagePipeline) {
        self.library = library
        self.pipeline = pipeline
    }

    /// The images of these galleries' cells that have no likeness and whose bytes are on this computer (a kept
    /// original or a file): worked out on a worker.
    nonisolated static func pending(in galleries: [(id: String, cells: [GalleryCell])]) -> [Pending] {
        var pending: [Pending] = []
        for (galleryID, cells) in galleries {
            for (index, cell) in cells.enumerated() {
                guard let image = cell.image, image.likeness == nil,
                    image.original != nil || image.url.hasPrefix("file:")
                else { continue }
                pending.append(
                    Pending(
                        id: image.id, galleryID: galleryID, cellIndex: index, url: image.url,
                        sha256: image.original?.sha256))
            }
        }
        return pending
    }

    func start(_ pending: [Pending]) {
        waiting = pending[...]
        progress = Progress(total: pending.count)
        fillSlots()
        if running == 0 { onProgress(progress) }
    }

    /// Stops the measuring (the app is shutting down) and records and saves what is measured so far.
    func cancel() {
        cancellation.cancel()
        flush()
    }

    /// Records and saves what is measured so far (before a quit).
    func flush() {
        MainContext.cancel(recordTimer)
        recordTimer = 0
        record()
        save()
    }

    private func fillSlots() {
        while running < Self.parallelMeasures, let image = waiting.popFirst() {
            running += 1
            measure(image)
        }
    }

    private func measure(_ image: Pending) {
        let side = Likeness.decodedSide
        let request = PictureRequest(
            url: image.url, sha256: image.sha256, fit: .cell(width: side, height: side, cornerRadius: 0), scale: 1,
            measuresLikeness: true, leavesThumbnail: false)
        pipeline.picture(
            request, priority: .background, cancellation: cancellation,
            onMain: { [weak self] result in self?.finished(image, try? result.get().likeness) })
    }

    private func finished(_ image: Pending, _ likeness: Likeness?) {
        running -= 1
        progress.done += 1
        if let likeness {
            measured.append((image.id, image.galleryID, image.cellIndex, likeness))
            if recordTimer == 0 {
                recordTimer = MainContext.after(milliseconds: Self.recordInterval) { [weak self] in
                    self?.recordTimer = 0
                    self?.record()
                }
            }
        }
        fillSlots()
        if progress.isFinished { flush() }
        onProgress(progress)
    }

    private func record() {
        guard !measured.isEmpty else { return }
        let batch = measured
        measured = []
        library.recordLikenesses(batch)
        unsaved = true
        if MainContext.monotonicMicroseconds - savedAt >= Self.saveIntervalMicroseconds { save() }
    }

    private func save() {
        guard unsaved else { return }
        unsaved = false
        savedAt = MainContext.monotonicMicroseconds
        library.save()
    }
}
