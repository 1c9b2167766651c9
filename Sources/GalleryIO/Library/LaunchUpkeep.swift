import Foundation
import GalleryCore
import Synchronization

/// The launch's clean-up of what no image of the library names any more, once no undo can bring an image of an earlier
/// session back: its kept originals (`OriginalsStore.startPruning`), its cached downloads (a download stays only while
/// its image has no kept original) and its imported files. Done in steps of bounded size, each a job of its own
/// (`run`), so that a save waits for one step, not for the whole: at a million images the sets and the listing took
/// seconds of the one I/O thread.
///
/// What is kept is what `library` names, a value taken once the whole library was in: an image removed later still has
/// its bytes (an undo may bring it back), and one added later keeps them too, since whatever this run keeps is never
/// deleted (`OriginalsStore`'s keeps this run, the cache's and imports' files written since `launch`).
public final class LaunchUpkeep: Sendable {
    /// How many of the library's images a step takes into the sets of what is kept.
    public static let imagesPerStep = 50_000
    /// How many cached downloads or imported files a step looks at.
    public static let filesPerStep = 2_000

    /// Where the clean-up stands.
    private enum Stage: Sendable {
        case listing
        /// The next image to take in: its gallery's index and its own.
        case gathering(gallery: Int, image: Int)
        case pruningOriginals
        case pruningCache(from: Int)
        case pruningImports(from: Int)
        case done
    }

    /// What the steps hand on to each other.
    private struct Progress: Sendable {
        var stage = Stage.listing
        var originals: OriginalsStore.Pruning?
        var cacheFiles: [URL] = []
        var importFiles: [URL] = []
        /// The names each folder keeps, gathered from the library; only for a folder with something in it.
        var keptOriginals = Set<OriginalDigest>()
        var keptDownloads = Set<String>()
        var keptImports = Set<String>()
        var steps = 0
    }

    private let library: GalleryState
    private let source: ImageBytesSource
    private let imports: URL
    private let launch: Date
    private let grace: TimeInterval
    private let record: URL?
    private let imagesPerStep: Int
    private let filesPerStep: Int
    private let progress = Mutex(Progress())

    /// - Parameters:
    ///   - library: the whole library, as a value.
    ///   - imports: the folder of imported files.
    ///   - launch: files of the cache and imports written since are this session's, and stay.
    ///   - grace, record: in a shared folder, how long an original waits unreferenced before it goes, and this
    ///     computer's record of when each was first found so (`OriginalsStore.startPruning`).
    public init(
        library: GalleryState, source: ImageBytesSource, imports: URL, launch: Date, grace: TimeInterval = 0,
        record: URL? = nil, imagesPerStep: Int = imagesPerStep, filesPerStep: Int = filesPerStep
    ) {
        self.library = library
        self.source = source
        self.imports = imports
        self.launch = launch
        self.grace = grace
        self.record = record
        self.imagesPerStep = max(1, imagesPerStep)
        self.filesPerStep = max(1, filesPerStep)
    }

    /// How many steps have run.
    public var steps: Int { progress.withLock { $0.steps } }

    /// Runs every step, each as a job `submit` runs (the I/O lane's, behind saves): the next is submitted once the
    /// one before is done. `then` is called after the last.
    public func run(
        submitting submit: @escaping @Sendable (_ job: @escaping @Sendable () -> Void) -> Void,
        then: @escaping @Sendable () -> Void = {}
    ) {
        submit { [self] in
            if step() {
                run(submitting: submit, then: then)
            } else {
                then()
            }
        }
    }

    /// Runs the next step; returns whether steps are left.
    @discardableResult
    public func step() -> Bool {
        progress.withLock { progress in
            progress.steps += 1
            switch progress.stage {
            case .listing: list(&progress)
            case .gathering(let gallery, let image): gather(from: gallery, image, &progress)
            case .pruningOriginals:
                if var pruning = progress.originals,
                    source.originals.pruneNextFolder(&pruning, keeping: progress.keptOriginals)
                {
                    progress.originals = pruning
                } else {
                    progress.originals = nil
                    progress.keptOriginals = []
                    progress.stage = Self.stage(after: .pruningOriginals, progress)
                }
            case .pruningCache(let start):
                let end = min(start + filesPerStep, progress.cacheFiles.count)
                source.removeUnreferenced(
                    progress.cacheFiles[start..<end], keeping: progress.keptDownloads, writtenBefore: launch,
                    regularFilesOnly: false)
                progress.stage =
                    end < progress.cacheFiles.count
                    ? .pruningCache(from: end) : Self.stage(after: .pruningCache(from: end), progress)
            case .pruningImports(let start):
                let end = min(start + filesPerStep, progress.importFiles.count)
                source.removeUnreferenced(
                    progress.importFiles[start..<end], keeping: progress.keptImports, writtenBefore: launch,
                    regularFilesOnly: true)
                progress.stage = end < progress.importFiles.count ? .pruningImports(from: end) : .done
            case .done:
                break
            }
            if case .done = progress.stage { return false }
            return true
        }
    }

    /// Lists what there is to look through before any set is built: a library whose folders are empty builds none.
    private func list(_ progress: inout Progress) {
        progress.originals = source.originals.startPruning(unreferencedFor: grace, record: record, now: launch)
        progress.cacheFiles = source.files(in: source.cacheDirectory)
        progress.importFiles = source.files(in: imports)
        let anything = progress.originals != nil || !progress.cacheFiles.isEmpty || !progress.importFiles.isEmpty
        progress.stage = anything ? .gathering(gallery: 0, image: 0) : .done
    }

    /// Takes up to `imagesPerStep` images, from this one on, into the sets of what is kept.
    private func gather(from gallery: Int, _ image: Int, _ progress: inout Progress) {
        let (originals, downloads, imports) =
            (progress.originals != nil, !progress.cacheFiles.isEmpty, !progress.importFiles.isEmpty)
        var (gallery, image, taken) = (gallery, image, 0)
        while gallery < library.galleries.count && taken < imagesPerStep {
            let images = library.galleries[gallery].images
            let end = min(images.count, image + imagesPerStep - taken)
            for index in image..<end {
                let kept = images[index]
                if originals, let digest = kept.originalDigest { progress.keptOriginals.insert(digest) }
                if downloads && kept.original == nil {
                    progress.keptDownloads.insert(ImageBytesSource.cacheName(of: kept.url))
                }
                if imports, let name = ImageBytesSource.importName(of: kept.url) { progress.keptImports.insert(name) }
            }
            taken += end - image
            if end < images.count {
                image = end
            } else {
                (gallery, image) = (gallery + 1, 0)
            }
        }
        progress.stage =
            gallery < library.galleries.count
            ? .gathering(gallery: gallery, image: image) : Self.stage(after: .gathering(gallery: 0, image: 0), progress)
    }

    /// The stage after `stage`, past those with nothing to look through.
    private static func stage(after stage: Stage, _ progress: Progress) -> Stage {
        switch stage {
        case .listing, .gathering:
            if progress.originals != nil { return .pruningOriginals }
            fallthrough
        case .pruningOriginals:
            if !progress.cacheFiles.isEmpty { return .pruningCache(from: 0) }
            fallthrough
        case .pruningCache:
            if !progress.importFiles.isEmpty { return .pruningImports(from: 0) }
            fallthrough
        case .pruningImports, .done:
            return .done
        }
    }
}
