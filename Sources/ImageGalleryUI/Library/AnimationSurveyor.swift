import Foundation
import GLibKit
import GalleryCore
import GalleryIO
import Synchronization

/// Records whether each image of the library moves: at launch for the images a file written before it knew
/// (`GalleryImage.animation` absent), then for each image as it arrives, however it came. Headers are read on an
/// I/O thread a batch at a time; what they say is recorded twice a second while more are queued, at once when the
/// last is read, and saved with the library's next change (a launch alone never rewrites the file). An image whose
/// bytes are not here yet, or whose record was not saved, is read again at the next launch. The GTK thread only hands
/// the cells over after a change and records each batch: the I/O thread looks through them, once a change, and keeps
/// the images it found to read, with where each stood; after images only arrived, it is handed those alone.
@MainActor
final class AnimationSurveyor {
    /// Images read in one job: few enough that the cells a window shows are read between two jobs.
    private nonisolated static let batchSize = 64
    /// How long what was read may wait to be recorded: each record is a change every view of its galleries hears,
    /// so a large library is recorded a few times a second rather than once a batch.
    private static let recordInterval: UInt32 = 500

    private let library: GalleryLibrary
    private let source: ImageBytesSource
    private let scheduler: JobScheduler
    private let libraryIsShareable: Bool
    private var observation: Observation?
    private let queue = SurveyQueue()
    private var isReading = false
    private var lookQueued = false
    /// Whether the cells changed since the I/O thread last looked through them, other than by images arriving.
    private var needsLook = true
    /// The images that arrived since the I/O thread last looked: it looks at these alone when nothing else changed.
    private var arrivedSinceLook: [Unread] = []
    /// Whether that look left images to read.
    private var hasQueued = false
    /// Set while the surveyor's own findings are recorded: that change brings no image to read.
    private var isRecording = false
    /// What a header said of an image's frames, and where the image stood when it was read.
    private typealias Found = [ImageID: (galleryID: String, cellIndex: Int, summary: AnimationSummary)]
    /// What was read and is not recorded yet, and the timer that records it.
    private var unrecorded: Found = [:]
    private var recordTimer: UInt32 = 0

    init(library: GalleryLibrary, source: ImageBytesSource, scheduler: JobScheduler, libraryIsShareable: Bool) {
        self.library = library
        self.source = source
        self.scheduler = scheduler
        self.libraryIsShareable = libraryIsShareable
        observation = library.observe { [weak self] change in
            // Records of what images are made of bring no image to read.
            guard case .cells(let galleryID) = change, let self, !isRecording, !library.onlyRecordsChanged else {
                return
            }
            if !needsLook, let arrived = library.imagesArrived {
                let cells = library.cells(of: galleryID)
                arrivedSinceLook += arrived.compactMap { arrival in
                    cells[arrival.cellIndex].image.map { Unread($0, galleryID, arrival.cellIndex) }
                }
            } else {
                needsLook = true
                arrivedSinceLook = []
            }
            queueLook()
        }
        queueLook()
    }

    /// Looks for images not yet read once the main loop is idle: the cells of a change land first.
    private func queueLook() {
        guard !lookQueued, !isReading else { return }
        lookQueued = true
        MainContext.post { [weak self] in
            self?.lookQueued = false
            self?.readNextBatch()
        }
    }

    /// Reads the next batch on an I/O thread, after looking through the cells as they stand when they changed.
    private func readNextBatch() {
        guard !isReading, needsLook || hasQueued || !arrivedSinceLook.isEmpty else { return }
        isReading = true
        let look: Look =
            needsLook
            ? .galleries(library.galleries.map { ($0.id, library.cells(of: $0.id)) }) : .arrived(arrivedSinceLook)
        let replacesQueue = needsLook
        needsLook = false
        arrivedSinceLook = []
        let queue = queue
        let libraryIsShareable = libraryIsShareable
        let source = source
        scheduler.run(
            .io, .background,
            {
                let (batch, hasQueued) = queue.nextBatch(looking: look, replacing: replacesQueue) { look, asked in
                    Self.unread(in: look, asked: asked, libraryIsShareable: libraryIsShareable)
                }
                var found: Found = [:]
                for unread in batch {
                    guard let summary = AnimationSurvey.summary(of: unread.image, source: source) else { continue }
                    found[unread.image.id] = (unread.galleryID, unread.cellIndex, summary)
                }
                return (found, hasQueued)
            },
            then: { [weak self] (found: Found, hasQueued: Bool) in
                guard let self else { return }
                isReading = false
                self.hasQueued = hasQueued
                unrecorded.merge(found) { $1 }
                if !hasQueued {
                    record()
                } else if recordTimer == 0 {
                    recordTimer = MainContext.after(milliseconds: Self.recordInterval) { [weak self] in
                        self?.recordTimer = 0
                        self?.record()
                    }
                }
                readNextBatch()
            })
    }

    private func record() {
        MainContext.cancel(recordTimer)
        recordTimer = 0
        guard !unrecorded.isEmpty else { return }
        isRecording = true
        library.recordAnimations(unrecorded.map { ($0.key, $0.value.galleryID, $0.value.cellIndex, $0.value.summary) })
        isRecording = false
        unrecorded = [:]
    }

    /// An image to read, with the gallery and the cell where it stood when found: its record looks there first.
    private struct Unread: Sendable {
        var image: GalleryImage
        var galleryID: String
        var cellIndex: Int

        init(_ image: GalleryImage, _ galleryID: String, _ cellIndex: Int) {
            self.image = image
            self.galleryID = galleryID
            self.cellIndex = cellIndex
        }
    }

    /// What the I/O thread looks through: every gallery's cells, or the images that arrived since it last looked.
    private enum Look: Sendable {
        case galleries([(id: String, cells: [GalleryCell])])
        case arrived([Unread])
    }

    /// The images of `look` not read yet nor asked about in this run, in the library's order.
    private nonisolated static func unread(in look: Look, asked: Set<ImageID>, libraryIsShareable: Bool) -> [Unread] {
        // In a shared library, what a file here is made of tells whoever wrote its address that it exists.
        func isUnread(_ image: GalleryImage) -> Bool {
            image.animation == nil && !asked.contains(image.id)
                && MeasuredRatio.mayRecord(for: image, libraryIsShareable: libraryIsShareable)
        }
        switch look {
        case .arrived(let arrived):
            return arrived.filter { isUnread($0.image) }
        case .galleries(let galleries):
            var images: [Unread] = []
            for (galleryID, cells) in galleries {
                for (index, cell) in cells.enumerated() {
                    guard case .image(let image) = cell.content, isUnread(image) else { continue }
                    images.append(Unread(image, galleryID, index))
                }
            }
            return images
        }
    }

    /// What only the I/O thread touches: the images asked about in this run (answered or not: none is read twice)
    /// and those its last look found and are not read yet. The GTK thread never copies or frees them.
    private final class SurveyQueue: Sendable {
        private struct State {
            var asked: Set<ImageID> = []
            var queued: ArraySlice<Unread> = []
        }

        private let state = Mutex(State())

        /// The next batch to read, after looking through `look` (the library's cells, whose unread images replace
        /// those queued, or arrived ones, added to them), and whether more are queued.
        func nextBatch(
            looking look: Look, replacing: Bool, unread: (Look, Set<ImageID>) -> [Unread]
        ) -> (batch: [Unread], hasQueued: Bool) {
            state.withLock { state in
                let found = unread(look, state.asked)
                if replacing {
                    state.queued = ArraySlice(found)
                } else if !found.isEmpty {
                    state.queued.append(contentsOf: found)
                }
                let batch = Array(state.queued.prefix(AnimationSurveyor.batchSize))
                state.queued = state.queued.dropFirst(batch.count)
                // An empty slice would still hold the whole list.
                if state.queued.isEmpty { state.queued = [] }
                state.asked.formUnion(batch.map(\.image.id))
                return (batch, !state.queued.isEmpty)
            }
        }
    }
}
