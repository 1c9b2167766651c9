import Foundation
import GLibKit
import GalleryCore
import Synchronization
import Testing

@testable import GalleryIO

/// The launch's clean-up in steps: each its own job, and what stays exactly what the library named, kept or wrote
/// meanwhile, whatever changed between the steps.
@Suite struct LaunchUpkeepTests {
    let folder: TemporaryDirectory
    let source: ImageBytesSource
    let imports: URL
    let launch = Date()

    init() throws {
        folder = try TemporaryDirectory()
        source = ImageBytesSource(
            cacheDirectory: folder.url.appendingPathComponent("downloads"),
            thumbnails: ThumbnailCache(cacheHome: folder.url), scheduler: JobScheduler(ioThreads: 1, cpuThreads: 1),
            originals: OriginalsStore(directory: folder.url.appendingPathComponent("originals")))
        imports = folder.url.appendingPathComponent("imported", isDirectory: true)
    }

    /// Jobs submitted and not yet run, run one at a time by the test.
    private final class Queue: Sendable {
        let jobs = Mutex<[@Sendable () -> Void]>([])

        var submit: @Sendable (@escaping @Sendable () -> Void) -> Void {
            { job in self.jobs.withLock { $0.append(job) } }
        }

        /// Runs the one job waiting; false when none is.
        func runNext() -> Bool {
            let job: (@Sendable () -> Void)? = jobs.withLock { jobs in
                // The next step is submitted only once this one ran: one at a time, so a save can run between.
                precondition(jobs.count <= 1)
                return jobs.popLast()
            }
            job?()
            return job != nil
        }
    }

    /// Bytes kept by an earlier session (a store of its own: what this run keeps is never deleted).
    private func keptEarlier(_ text: String) throws -> String {
        try OriginalsStore(directory: source.originals.directory).keep(Data(text.utf8))
    }

    private func image(_ name: String, original sha256: String?) -> GalleryImage {
        var image = GalleryImage(url: "https://example.org/\(name).png", aspectRatio: 1)
        image.original = sha256.map {
            KeptOriginal(sha256: $0, byteCount: 1, pixelWidth: 1, pixelHeight: 1, format: "png")
        }
        return image
    }

    /// A file of the cache or the imports written an hour before the launch.
    private func oldFile(_ name: String, in directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent(name)
        try Data([1]).write(to: file)
        try FileManager.default.setAttributes(
            [.modificationDate: launch.addingTimeInterval(-3600)], ofItemAtPath: file.path)
    }

    private func exists(_ name: String, in directory: URL) -> Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path)
    }

    @Test func itGoesAStepAtATimeAndKeepsWhatTheLibraryNamedOrThisRunKeptMeanwhile() throws {
        defer { folder.remove() }
        let named = try (0..<5).map { try keptEarlier("named \($0)") }
        let unreferenced = try keptEarlier("unreferenced")
        let droppedAgain = try keptEarlier("dropped again between two steps")
        var library = GalleryState(galleries: [
            Gallery(name: "a", images: (0..<3).map { image("a\($0)", original: named[$0]) }),
            Gallery(
                name: "b", images: (3..<5).map { image("b\($0)", original: named[$0]) } + [image("web", original: nil)]),
        ])
        try oldFile(ImageBytesSource.cacheName(of: "https://example.org/web.png"), in: source.cacheDirectory)
        try oldFile(ImageBytesSource.cacheName(of: "https://example.org/gone.png"), in: source.cacheDirectory)
        try oldFile("kept.png", in: imports)
        try oldFile("unreferenced.png", in: imports)
        library.galleries[1].images.append(
            GalleryImage(url: "file://" + imports.appendingPathComponent("kept.png").path, aspectRatio: 1))
        let upkeep = LaunchUpkeep(
            library: library, source: source, imports: imports, launch: launch, imagesPerStep: 2, filesPerStep: 1)
        let queue = Queue()
        let done = Mutex(false)
        upkeep.run(submitting: queue.submit) { done.withLock { $0 = true } }
        var steps = 0
        while queue.runNext() {
            steps += 1
            if steps == 3 {
                // Between two steps: the window removes an image (its bytes stay for an undo), and a drop keeps
                // bytes no image named at the launch, and new ones.
                library.galleries[0].images.removeFirst()
                try source.originals.keep(Data("dropped again between two steps".utf8))
                try source.originals.keep(Data("dropped between two steps".utf8))
            }
        }
        #expect(done.withLock { $0 })
        let prefixFolders = Set((named + [unreferenced, droppedAgain]).map { $0.prefix(2) }).count
        // Listing, 4 steps of 2 of the 7 images, each prefix folder, the 2 cached downloads and the 2 imports.
        #expect(steps == 1 + 4 + prefixFolders + 2 + 2)
        #expect(upkeep.steps == steps)
        for sha256 in named + [droppedAgain] { #expect(source.originals.condition(of: sha256) == .intact) }
        #expect(source.originals.condition(of: unreferenced) == .missing)
        #expect(source.originals.condition(of: Checksum.sha256(Data("dropped between two steps".utf8))) == .intact)
        #expect(exists(ImageBytesSource.cacheName(of: "https://example.org/web.png"), in: source.cacheDirectory))
        #expect(!exists(ImageBytesSource.cacheName(of: "https://example.org/gone.png"), in: source.cacheDirectory))
        #expect(exists("kept.png", in: imports) && !exists("unreferenced.png", in: imports))
    }

    @Test func aLibraryWithNothingKeptBuildsNoSetAndStopsAfterListing() throws {
        defer { folder.remove() }
        let library = GalleryState(galleries: [Gallery(name: "a", images: [image("a", original: nil)])])
        let upkeep = LaunchUpkeep(library: library, source: source, imports: imports, launch: launch)
        #expect(!upkeep.step())
        #expect(upkeep.steps == 1)
    }

    @Test func anOriginalKeptWhileItsFolderIsLookedThroughStays() throws {
        defer { folder.remove() }
        let unreferenced = try keptEarlier("unreferenced, then dropped again")
        let upkeep = LaunchUpkeep(
            library: GalleryState(galleries: [Gallery(name: "a")]), source: source, imports: imports, launch: launch)
        // Listed and gathered: the folder is next.
        #expect(upkeep.step() && upkeep.step())
        try source.originals.keep(Data("unreferenced, then dropped again".utf8))
        #expect(!upkeep.step())
        #expect(source.originals.condition(of: unreferenced) == .intact)
    }

    @Test func importNamesAreReadOnlyFromFileAddresses() {
        #expect(ImageBytesSource.importName(of: "file:///home/u/imported/ab.png") == "ab.png")
        #expect(ImageBytesSource.importName(of: "FILE:///home/u/imported/ab.png") == "ab.png")
        #expect(ImageBytesSource.importName(of: "https://example.org/ab.png") == nil)
        #expect(ImageBytesSource.importName(of: "fil") == nil)
    }
}
