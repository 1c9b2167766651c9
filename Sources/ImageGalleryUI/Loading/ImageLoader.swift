import Foundation
import GalleryCore
import GtkKit

/// Turns gallery images into paintable surfaces: bytes fetched on an I/O pool, decoded on a CPU
/// pool at exactly the size they are shown (from a thumbnail on disk when there is one, else from
/// the file, leaving a thumbnail for next time), the newest requests (what is on screen now) first.
/// Decoded surfaces are kept within a memory budget, least recently painted dropped first. GTK
/// thread API.
@MainActor
final class ImageLoader {
    enum State {
        case ready(CairoSurface)
        case loading
        case failed(String)
    }

    /// Keeps a view subscribed to updates (a decoded image arrived or failed) while it lives.
    @MainActor final class Observation {
        fileprivate let key: Int
        fileprivate weak var loader: ImageLoader?
        fileprivate init(key: Int, loader: ImageLoader) {
            self.key = key
            self.loader = loader
        }
        isolated deinit { loader?.observers[key] = nil }
    }

    private var observers: [Int: (ImageID) -> Void] = [:]
    private var nextObserverKey = 0
    /// What each view shows now: work for images no view shows may be dropped.
    private var visibleByView: [ObjectIdentifier: Set<ImageID>] = [:]
    /// An image's true shape, known once decoded.
    var onAspectRatio: (ImageID, Double) -> Void = { _, _ in }

    let bytesSource: ImageBytesSource
    /// Fetches wait on disks and servers: threads of their own, enough that slow servers can't hold the rest back.
    private let fetchPool = WorkerPool(threads: 16, name: "image-fetch")
    /// Every core but one, at the lowest priority, for scrolls and drops alike: the window's thread
    /// finds a core free when it wakes. Nice values order threads only within the process's CPU
    /// share (its autogroup), and a decode thread that waited behind the window's thread is owed
    /// that time by the scheduler, which paid it back by holding the window's thread for 4–5 ms
    /// (drop part, 12 quiet drops, the window's thread's waits for a core over 3 ms: 107 with a
    /// thread a core plus one for drops, 43 with one pool of every core but one). Nor a thread a core
    /// at any priority: the X server, in its own autogroup, then waited behind them (Xvfb's waits for
    /// a core over 6 ms in 8 drops: 1 with one decode thread, 10-15 with two, at nice 19 or as
    /// SCHED_IDLE). Work for images scrolled away is dropped before it starts. They hand pictures
    /// over without a lock (`MainContext.post`); the only lock they share with the window's thread
    /// is the number formatter's, taken for a look-up when a failure is worded.
    private let decodePool = WorkerPool(threads: max(ProcessInfo.processInfo.activeProcessorCount - 1, 1),
                                        name: "image-decode", niceness: 19)

    private struct Entry {
        var surface: CairoSurface
        /// The file's own size: decoding again cannot get sharper than this.
        var originalWidth: Int
        var originalHeight: Int
        /// The cell size (device pixels) it was decoded for; nil for pixels handed in from elsewhere.
        var decodedFor: PixelSize?
        var lastUse: UInt64
        /// Whether `surface` is the display's copy yet (see `remember`).
        var isForDisplay = false
    }

    private struct PixelSize: Equatable {
        let width: Int
        let height: Int
    }

    private var surfaces: [ImageID: Entry] = [:]
    private var failures: [ImageID: String] = [:]
    /// Work under way, and when it started (monotonic microseconds).
    private var inFlight: [ImageID: (job: WorkerPool.Job, download: DownloadCancellation, started: Int)] = [:]
    /// Jobs asked for since the main loop was last idle.
    private var unsubmitted: [WorkerPool.Job] = []
    private var useCounter: UInt64 = 0
    private var usedBytes = 0
    let byteBudget: Int

    init(bytesSource: ImageBytesSource, byteBudget: Int = 192 * 1024 * 1024) {
        self.bytesSource = bytesSource
        self.byteBudget = byteBudget
    }

    /// What to paint for `image` in a cell of `cell`'s size (points) at the device `scale`; starts
    /// loading it (or a sharper version) when needed.
    func state(for image: GalleryImage, cell: LayoutRect, scale: Int) -> State {
        let (pixelWidth, pixelHeight) = Self.pixels(of: cell, scale: scale)
        if let failure = failures[image.id] { return .failed(failure) }
        useCounter += 1
        if var entry = surfaces[image.id] {
            entry.lastUse = useCounter
            if !entry.isForDisplay {
                let copy = entry.surface.forDisplay()
                usedBytes += copy.byteCount - entry.surface.byteCount
                entry.surface = copy
                entry.isForDisplay = true
            }
            surfaces[image.id] = entry
            // The cell changed size (zoom, a wider window): decode again to paint pixel for pixel,
            // and paint this one meanwhile. Once per cell size, whatever the decode gives.
            let fit = PixelFit(originalWidth: entry.originalWidth, originalHeight: entry.originalHeight,
                               cellWidth: pixelWidth, cellHeight: pixelHeight)
            if inFlight[image.id] == nil, entry.decodedFor != PixelSize(width: pixelWidth, height: pixelHeight),
               fit.wantsRedecode(ofPixelWidth: entry.surface.pixelWidth, pixelHeight: entry.surface.pixelHeight) {
                load(image, pixelWidth: pixelWidth, pixelHeight: pixelHeight, scale: scale)
            }
            return .ready(entry.surface)
        }
        if inFlight[image.id] == nil {
            load(image, pixelWidth: pixelWidth, pixelHeight: pixelHeight, scale: scale)
        }
        return .loading
    }

    /// Starts loading a cell about to be shown, behind what is on screen now (the pools run the
    /// newest work first, and cells painted after this ask later).
    func prefetch(_ image: GalleryImage, cell: LayoutRect, scale: Int) {
        guard failures[image.id] == nil, surfaces[image.id] == nil, inFlight[image.id] == nil else { return }
        let (pixelWidth, pixelHeight) = Self.pixels(of: cell, scale: scale)
        load(image, pixelWidth: pixelWidth, pixelHeight: pixelHeight, scale: scale)
    }

    /// A cell's size in device pixels, as decodes are asked for and kept.
    private static func pixels(of cell: LayoutRect, scale: Int) -> (width: Int, height: Int) {
        (Int((cell.width * Double(scale)).rounded(.up)), Int((cell.height * Double(scale)).rounded(.up)))
    }

    func failure(of id: ImageID) -> String? { failures[id] }

    /// Whether the image has been on its way for longer than `seconds`: a picture read from disk
    /// in a few milliseconds shows no spinner on its way.
    func isSlow(_ id: ImageID, after seconds: Double) -> Bool {
        guard let started = inFlight[id]?.started else { return false }
        return Double(MainContext.monotonicMicroseconds - started) / 1_000_000 > seconds
    }

    /// The state without starting any work (for names read by assistive technologies).
    func peekState(of id: ImageID) -> State {
        if let failure = failures[id] { return .failed(failure) }
        if let entry = surfaces[id] { return .ready(entry.surface) }
        return .loading
    }

    /// The file's own pixel size, once a cell decoded it.
    func originalSize(of id: ImageID) -> (width: Int, height: Int)? {
        surfaces[id].map { ($0.originalWidth, $0.originalHeight) }
    }

    /// Forgets a failure, and whatever was cached for it, so the next paint tries again.
    func retry(_ id: ImageID) {
        failures[id] = nil
    }

    /// Calls `handler` with each image whose surface arrived or failed, while the observation lives.
    func observe(_ handler: @escaping (ImageID) -> Void) -> Observation {
        let key = nextObserverKey
        nextObserverKey += 1
        observers[key] = handler
        return Observation(key: key, loader: self)
    }

    /// Records what a view shows. Work for images no view shows any more (scrolled away, deleted,
    /// their window closed) stops: queued work is dropped and a download under way is cancelled, so
    /// it frees its slot; a decode already started finishes and is kept.
    func setVisible(_ visible: Set<ImageID>, for view: ObjectIdentifier) {
        visibleByView[view] = visible.isEmpty ? nil : visible
        let wanted = visibleByView.values.reduce(into: Set<ImageID>()) { $0.formUnion($1) }
        for (id, work) in inFlight where !wanted.contains(id) {
            fetchPool.withdraw(work.job)
            work.download.cancel()
            inFlight[id] = nil
        }
    }

    /// Puts already decoded pixels in the cache (a placeholder that just finished).
    func insert(_ decoded: DecodedImage, for id: ImageID) {
        failures[id] = nil
        remember(decoded, for: id)
    }

    private func load(_ image: GalleryImage, pixelWidth: Int, pixelHeight: Int, scale: Int) {
        let source = bytesSource
        let url = image.url
        let id = image.id
        let decodePool = decodePool
        let download = DownloadCancellation()
        let cell = PixelSize(width: pixelWidth, height: pixelHeight)
        let decode: @Sendable (Data?) -> Void = { bytes in
            decodePool.submit {
                // Scrolled away while it waited: the next paint that needs it starts afresh.
                guard !download.isCancelled else { return }
                let decoded = Self.decode(url, bytes: bytes, source: source, cell: cell, scale: scale)
                MainContext.post { [weak self] in self?.finish(id, decoded, decodedFor: cell) }
            }
        }
        let job = WorkerPool.Job {
            // A file on disk (or a cached download) is read where it is decoded.
            if source.localOriginal(for: url) != nil { return decode(nil) }
            let result = source.bytes(for: url, cancellation: download)
            guard !download.isCancelled else { return }
            switch result {
            case .failure(let failure):
                MainContext.post { [weak self] in self?.finish(id, .failure(failure), decodedFor: cell) }
            case .success(let data):
                decode(data)
            }
        }
        inFlight[id] = (job, download, MainContext.monotonicMicroseconds)
        // Handed to the pool together once the main loop is idle: after the frame that asked.
        if unsubmitted.isEmpty {
            MainContext.post { [weak self] in self?.startRequested() }
        }
        unsubmitted.append(job)
    }

    /// Hands what was asked for to the pool now, not once the main loop is idle (a window being
    /// built wants its first screen decoding meanwhile).
    func startRequested() {
        guard !unsubmitted.isEmpty else { return }
        fetchPool.submit(unsubmitted)
        unsubmitted = []
    }

    /// Decodes a dropped image on the decode threads, then calls `then` there: a hundred transfers
    /// ending together take their turns instead of decoding at once and starving the window. Fitted
    /// into the x-large thumbnail size, whose thumbnail it leaves behind, so the cell that shows it
    /// decodes its exact size from that small file. Behind the cells on screen, and behind dropped
    /// images of a lower `rank`: the first image of a drop, where it landed, first.
    nonisolated func decodeDropped(_ url: String, bytes: Data, scale: Int, rank: Int,
                                   then: @escaping @Sendable (Result<DecodedImage, LoadFailure>) -> Void) {
        let source = bytesSource
        let box = ThumbnailSize.xLarge.pixels
        decodePool.submit(rank: rank) {
            then(Self.decode(url, bytes: bytes, source: source, cell: PixelSize(width: box, height: box), scale: scale))
        }
    }

    /// The picture for a cell of `cell` device pixels: from the thumbnail on disk when it is
    /// current and large enough, else decoded from the file (leaving that thumbnail behind), else
    /// from `bytes` (a data: URI). Runs on a decode thread.
    private nonisolated static func decode(_ url: String, bytes: Data?, source: ImageBytesSource, cell: PixelSize,
                                           scale: Int) -> Result<DecodedImage, LoadFailure> {
        let original = source.localOriginal(for: url)
        let thumbnailSize = original == nil ? nil : ThumbnailSize.covering(width: cell.width, height: cell.height)
        if let original, let thumbnailSize, let thumbnail = source.thumbnails.read(original, size: thumbnailSize) {
            return .success(fitted(thumbnail, cell: cell, scale: scale))
        }
        guard let data = bytes ?? original.flatMap({ FileManager.default.contents(atPath: $0.path) }) else {
            return .failure(LoadFailure(description: tr("file not found")))
        }
        // A square box: EXIF rotation turns the picture after the decoder fitted it.
        let side = thumbnailSize?.pixels ?? max(cell.width, cell.height)
        switch ImageDecoder.decodePicture(StillImage.firstFrame(of: data), fit: (side, side)) {
        case .success(let picture):
            if let original, let thumbnailSize,
               max(picture.originalWidth, picture.originalHeight) > thumbnailSize.pixels {
                source.thumbnails.write(picture, of: original, size: thumbnailSize)
            }
            return .success(fitted(picture, cell: cell, scale: scale))
        case .failure(let error):
            // What the server sent was no image: do not keep it for next time.
            source.removeCached(url)
            return .failure(LoadFailure(error, decoding: data))
        }
    }

    private nonisolated static func fitted(_ picture: DecodedPicture, cell: PixelSize, scale: Int) -> DecodedImage {
        let fit = PixelFit(originalWidth: picture.originalWidth, originalHeight: picture.originalHeight,
                           cellWidth: cell.width, cellHeight: cell.height)
        // A picture that fills its cell has the cell's round corners: it is painted without a clip.
        let fillsCell = abs(fit.width - cell.width) <= 1 && abs(fit.height - cell.height) <= 1
        return picture.image(width: fit.width, height: fit.height, scale: scale,
                             cornerRadius: fillsCell ? GalleryView.cornerRadius : 0)
    }

    private func finish(_ id: ImageID, _ result: Result<DecodedImage, LoadFailure>, decodedFor cell: PixelSize) {
        inFlight[id] = nil
        switch result {
        case .success(let decoded):
            remember(decoded, for: id, decodedFor: cell)
            if decoded.originalWidth > 0, decoded.originalHeight > 0 {
                onAspectRatio(id, Double(decoded.originalWidth) / Double(decoded.originalHeight))
            }
        case .failure(let failure):
            failures[id] = failure.description
        }
        for key in observers.keys.sorted() { observers[key]?(id) }
    }

    private func remember(_ decoded: DecodedImage, for id: ImageID, decodedFor cell: PixelSize? = nil) {
        useCounter += 1
        if let old = surfaces[id] { usedBytes -= old.surface.byteCount }
        // The display's copy, read without an upload in every frame the picture is on screen, is
        // made at its first paint: most of a drop's hundred pictures land off screen, and making
        // each copy at once held the window's thread (fresh shared memory to fault in and fill).
        surfaces[id] = Entry(surface: decoded.surface, originalWidth: decoded.originalWidth,
                             originalHeight: decoded.originalHeight, decodedFor: cell, lastUse: useCounter)
        usedBytes += decoded.surface.byteCount
        evictIfNeeded()
    }

    /// Drops the least recently painted surfaces until within budget.
    private func evictIfNeeded() {
        guard usedBytes > byteBudget else { return }
        let oldestFirst = surfaces.sorted { $0.value.lastUse < $1.value.lastUse }
        for (id, entry) in oldestFirst where usedBytes > byteBudget * 3 / 4 {
            surfaces[id] = nil
            usedBytes -= entry.surface.byteCount
        }
    }
}
