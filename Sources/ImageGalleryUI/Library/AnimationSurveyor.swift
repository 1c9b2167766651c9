import Foundation
import GLibKit
import GalleryCore
import GalleryIO
import Synchronization

/// Records whether each image of the library moves: at launch for the images a file written before it knew
/// (`GalleryImage.animation` absent), then for each image as it arrives, however it came. Headers are read on an
/// I/O thread a batch at a time; what they say is recorded twice a second while more are queued, at once when the
/// last is read, and saved with the library's next change (a launch alone never rewrites the file). An image whose
/// bytes are not here yet, or whose record was not saved, is read again at the next launch. The GTK thread only hands the cells over after a change and records each batch:
/// the I/O thread looks through them, once a change, and keeps the images it found to read.
@MainActor
final class AnimationSurveyor {
    /// Images read in one job: few enough that the cells a window shows are read between two jobs.
    private nonisolated static let batchSize = 64
    /// How long what was read may wait to be recorded: each record makes every view of the galleries it changes
    /// look through their cells again, which once a batch held the GTK thread for a minute at 200,000 images.
    private static let recordInterval: UInt32 = 500

    private let library: GalleryLibrary
    private let source: ImageBytesSource
    private let scheduler: JobScheduler
    private let libraryIsShareable: Bool
    private var observation: Observation?
    private let queue = SurveyQueue()
    private var isReading = false
    private var lookQueued = false
    /// Whether the cells changed since the I/O thread last looked through them.
    private var needsLook = true
    /// Whether that look left images to read.
    private var hasQueued = false
    /// Set while the surveyor's own findings are recorded: that change brings no image to read.
    private var isRecording = false
    /// What was read and is not recorded yet, and the timer that records it.
    private var unrecorded: [ImageID: AnimationSummary] = [:]
    private var recordTimer: UInt32 = 0

    init(library: GalleryLibrary, source: ImageBytesSource, scheduler: JobScheduler, libraryIsShareable: Bool) {
        self.library = library
        self.source = source
        self.scheduler = scheduler
        self.libraryIsShareable = libraryIsShareable
        observation = library.observe { [weak self] change in
            guard case .cells = change, let self, !isRecording else { return }
            needsLook = true
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
        guard !isReading, needsLook || hasQueued else { return }
        isReading = true
        let cells = needsLook ? library.galleries.map { library.cells(of: $0.id) } : nil
        needsLook = false
        let queue = queue
        let libraryIsShareable = libraryIsShareable
        let source = source
        scheduler.run(
            .io, .background,
            {
                let (batch, hasQueued) = queue.nextBatch(looking: cells) { cells, asked in
                    Self.unread(in: cells, asked: asked, libraryIsShareable: libraryIsShareable)
                }
                var found: [ImageID: AnimationSummary] = [:]
                for image in batch { found[image.id] = AnimationSurvey.summary(of: image, source: source) }
                return (found, hasQueued)
            },
            then: { [weak self] (found: [ImageID: AnimationSummary], hasQueued: Bool) in
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
        library.recordAnimations(unrecorded)
        isRecording = false
        unrecorded = [:]
    }

    /// The images of `cells` not read yet nor asked about in this run, in the library's order.
    private nonisolated static func unread(
        in cells: [[GalleryCell]], asked: Set<ImageID>, libraryIsShareable: Bool
    ) -> [GalleryImage] {
        var images: [GalleryImage] = []
        for galleryCells in cells {
            for cell in galleryCells {
                // In a shared library, what a file here is made of tells whoever wrote its address that it exists.
                guard case .image(let image) = cell.content, image.animation == nil, !asked.contains(image.id),
                    MeasuredRatio.mayRecord(for: image, libraryIsShareable: libraryIsShareable)
                else { continue }
                images.append(image)
            }
        }
        return images
    }

    /// What only the I/O thread touches: the images asked about in this run (answered or not: none is read twice)
    /// and those its last look found and are not read yet. The GTK thread never copies or frees them.
    private final class SurveyQueue: Sendable {
        private struct State {
            var asked: Set<ImageID> = []
            var queued: ArraySlice<GalleryImage> = []
        }

        private let state = Mutex(State())

        /// The next batch to read, after looking through `cells` when they are given, and whether more are queued.
        func nextBatch(
            looking cells: [[GalleryCell]]?, unread: ([[GalleryCell]], Set<ImageID>) -> [GalleryImage]
        ) -> (batch: [GalleryImage], hasQueued: Bool) {
            state.withLock { state in
                if let cells { state.queued = ArraySlice(unread(cells, state.asked)) }
                let batch = Array(state.queued.prefix(AnimationSurveyor.batchSize))
                state.queued = state.queued.dropFirst(batch.count)
                // An empty slice would still hold the whole list.
                if state.queued.isEmpty { state.queued = [] }
                state.asked.formUnion(batch.map(\.id))
                return (batch, !state.queued.isEmpty)
            }
        }
    }
}
