import Foundation
import GLibKit
import GalleryCore
import GalleryIO

/// Records whether each image of the library moves: at launch for the images a file written before it knew
/// (`GalleryImage.animation` absent), then for each image as it arrives, however it came. Headers are read on an
/// I/O thread a batch at a time, each batch recorded as it is done and saved with the library's next change (a
/// launch alone never rewrites the file); an image whose bytes are not here yet, or whose record was not saved, is
/// read again at the next launch.
@MainActor
final class AnimationSurveyor {
    /// Images read in one job: enough to save the library rarely, few enough that each batch shows soon.
    private static let batchSize = 64

    private let library: GalleryLibrary
    private let source: ImageBytesSource
    private let scheduler: JobScheduler
    private let libraryIsShareable: Bool
    private var observation: Observation?
    /// Images asked about in this run (answered or not): none is read twice.
    private var asked: Set<ImageID> = []
    private var isReading = false
    private var lookQueued = false

    init(library: GalleryLibrary, source: ImageBytesSource, scheduler: JobScheduler, libraryIsShareable: Bool) {
        self.library = library
        self.source = source
        self.scheduler = scheduler
        self.libraryIsShareable = libraryIsShareable
        observation = library.observe { [weak self] change in
            if case .cells = change { self?.queueLook() }
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

    private func readNextBatch() {
        guard !isReading else { return }
        var batch: [GalleryImage] = []
        search: for gallery in library.galleries {
            for cell in library.cells(of: gallery.id) {
                // In a shared library, what a file here is made of tells whoever wrote its address that it exists.
                guard let image = cell.image, image.animation == nil, !asked.contains(image.id),
                    MeasuredRatio.mayRecord(for: image, libraryIsShareable: libraryIsShareable)
                else { continue }
                batch.append(image)
                if batch.count == Self.batchSize { break search }
            }
        }
        guard !batch.isEmpty else { return }
        asked.formUnion(batch.map(\.id))
        isReading = true
        let source = source
        let images = batch
        scheduler.run(
            .io, .background,
            {
                var found: [ImageID: AnimationSummary] = [:]
                for image in images { found[image.id] = AnimationSurvey.summary(of: image, source: source) }
                return found
            },
            then: { [weak self] found in
                guard let self else { return }
                isReading = false
                library.recordAnimations(found)
                readNextBatch()
            })
    }
}
