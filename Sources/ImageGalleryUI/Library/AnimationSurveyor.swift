import Foundation
import GLibKit
import GalleryCore
import GalleryIO

/// Records whether each image of the library moves: at launch for the images a file written before it knew
/// (`GalleryImage.animation` absent), then for each image as it arrives, however it came. Headers are read on an I/O
/// thread a batch at a time; what they say is recorded twice a second while more are queued, at once when the last is
/// read (a gallery at a time, each in a turn of the main loop of its own), and saved with the library's next change (a
/// launch alone never rewrites the file). An image whose bytes are not here yet, or whose record was not saved, is read
/// again at the next launch. The GTK thread only hands the cells over after a change and records each batch: the I/O
/// thread looks through them, once a change, and keeps where to read each image it found and where it stood
/// (`AnimationSurveyQueue`); after images only arrived, it is handed those alone.
@MainActor
final class AnimationSurveyor {
    /// Images read in one job: few enough that the cells a window shows are read between two jobs.
    private static let batchSize = 64
    /// How long what was read may wait to be recorded: each record is a change every view of its galleries hears,
    /// so a large library is recorded a few times a second rather than once a batch.
    private static let recordInterval: UInt32 = 500

    private let library: GalleryLibrary
    private let source: ImageBytesSource
    private let scheduler: JobScheduler
    private var observation: Observation?
    private let queue: AnimationSurveyQueue
    private var isReading = false
    private var lookQueued = false
    /// Whether the cells changed since the I/O thread last looked through them, other than by images arriving.
    private var needsLook = true
    /// The images that arrived since the I/O thread last looked: it looks at these alone when nothing else changed.
    private var arrivedSinceLook: [(image: GalleryImage, galleryID: String, cellIndex: Int)] = []
    /// Whether that look left images to read.
    private var hasQueued = false
    /// Set while the surveyor's own findings are recorded: that change brings no image to read.
    private var isRecording = false
    /// What a header said of an image's frames, and where the image stood when it was read.
    private typealias Found = [ImageID: (galleryID: String, cellIndex: Int, summary: AnimationSummary)]
    /// What was read and is not recorded yet, and the timer that records it.
    private var unrecorded: Found = [:]
    private var recordTimer: UInt32 = 0
    /// Whether the next slice of what was read is posted to the main loop.
    private var slicePosted = false

    init(library: GalleryLibrary, source: ImageBytesSource, scheduler: JobScheduler, libraryIsShareable: Bool) {
        self.library = library
        self.source = source
        self.scheduler = scheduler
        queue = AnimationSurveyQueue(batchSize: Self.batchSize, libraryIsShareable: libraryIsShareable)
        observation = library.observe { [weak self] change in
            // Records of what images are made of bring no image to read.
            guard case .cells(let galleryID) = change, let self, !isRecording, !library.onlyRecordsChanged else {
                return
            }
            if !needsLook, let arrived = library.imagesArrived {
                let cells = library.cells(of: galleryID)
                arrivedSinceLook += arrived.compactMap { arrival in
                    cells[arrival.cellIndex].image.map { ($0, galleryID, arrival.cellIndex) }
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
        let look: AnimationSurveyQueue.Look? =
            needsLook
            ? .galleries(library.galleries.map { ($0.id, library.cells(of: $0.id)) })
            : arrivedSinceLook.isEmpty ? nil : .arrived(arrivedSinceLook)
        needsLook = false
        arrivedSinceLook = []
        let queue = queue
        let source = source
        scheduler.run(
            .io, .background,
            {
                let (batch, hasQueued) = queue.nextBatch(looking: look)
                var found: Found = [:]
                for unread in batch {
                    guard let summary = AnimationSurvey.summary(url: unread.url, sha256: unread.sha256, source: source)
                    else { continue }
                    found[unread.id] = (unread.galleryID, unread.cellIndex, summary)
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
        // One gallery's images a turn of the main loop: a key pressed meanwhile waits for one gallery's record at most,
        // not for all that was read in `recordInterval`. A record copies its gallery's cells once, whatever the number
        // of images it records: a fixed number of images a turn copied a gallery of thousands many times over.
        guard let galleryID = unrecorded.first?.value.galleryID else { return }
        let slice = unrecorded.filter { $0.value.galleryID == galleryID }
        for id in slice.keys { unrecorded.removeValue(forKey: id) }
        isRecording = true
        library.recordAnimations(slice.map { ($0.key, $0.value.galleryID, $0.value.cellIndex, $0.value.summary) })
        isRecording = false
        guard !unrecorded.isEmpty, !slicePosted else { return }
        // After the input and the frame the main loop has waiting (the posted work runs below them).
        slicePosted = true
        MainContext.post { [weak self] in
            self?.slicePosted = false
            self?.record()
        }
    }
}
