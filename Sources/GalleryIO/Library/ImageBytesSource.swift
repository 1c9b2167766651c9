import Foundation
import GLibKit
import GalleryCore
import Synchronization

/// Gets an image's bytes: its original as the library keeps it (by SHA-256) first, else from wherever
/// its URL points: the disk cache or the network for http(s), the file system for file://, the URL
/// itself for data:. Runs on worker threads.
public final class ImageBytesSource: Sendable {
    public let cacheDirectory: URL
    public let thumbnails: ThumbnailCache
    public let scheduler: JobScheduler
    public let originals: OriginalsStore
    /// Whether a missing original may still arrive (a library in a folder the user chose, which a sync tool may
    /// share): its image then waits for it; in the data folder a missing original is the failure it is.
    public let originalsMayArrive: Bool
    /// In a library in a folder the user chose, the local addresses this computer's user added or approved: any
    /// other is not downloaded (see `download`). nil in the data folder, which no other computer writes.
    public let localAddresses: LocalAddressApprovals?
    /// The download under way for each address, which later requests for it may share.
    private let downloads = Mutex<[String: SharedDownload]>([:])
    /// Thumbnails handed to the I/O lane and not yet written (`ImagePipeline`), each holding its pixels until then.
    let thumbnailsWaiting = Atomic(0)

    public init(
        cacheDirectory: URL, thumbnails: ThumbnailCache, scheduler: JobScheduler, originals: OriginalsStore,
        originalsMayArrive: Bool = true, localAddresses: LocalAddressApprovals? = nil
    ) {
        self.originalsMayArrive = originalsMayArrive
        self.localAddresses = localAddresses
        self.cacheDirectory = cacheDirectory
        self.thumbnails = thumbnails
        self.scheduler = scheduler
        self.originals = originals
    }

    /// The local file the image at `url` is read from, when there is one now: its kept original
    /// (`sha256`), else the file itself for file://, the cached download for http(s).
    public func localOriginal(for url: String, sha256: String? = nil) -> ThumbnailCache.Original? {
        if let sha256, let path = originals.existingPath(for: sha256) { return ThumbnailCache.Original(path: path) }
        // A `data:` URI may be tens of megabytes of text: it is not parsed as a URL.
        guard !url.hasPrefix("data:"), let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased() else {
            return nil
        }
        switch scheme {
        case "file": return ThumbnailCache.Original(path: parsed.path)
        case "http", "https": return ThumbnailCache.Original(path: cacheFile(for: url).path)
        default: return nil
        }
    }

    /// `then`, with a failure (other than a cancel) said as "waiting for sync" when the library names
    /// an original `sha256` that is not here yet: another computer's, on its way through a sync tool.
    /// Call on an I/O or CPU thread.
    func awaitingOriginal<Value>(
        _ sha256: String?, _ then: @escaping @Sendable (Result<Value, LoadFailure>) -> Void
    ) -> @Sendable (Result<Value, LoadFailure>) -> Void {
        guard originalsMayArrive, let sha256, originals.existingPath(for: sha256) == nil else { return then }
        return { result in
            guard case .failure(let failure) = result, failure != LoadFailure(.cancelled) else { return then(result) }
            then(.failure(.waitingForSync))
        }
    }

    public func cacheFile(for url: String) -> URL {
        cacheDirectory.appendingPathComponent(Checksum.sha256(url))
    }

    /// Gets the bytes of the image at `url` and calls `then` with them exactly once, on `lane`: read on the
    /// I/O lane when they are at hand (its kept original `sha256` first, checked against its name), else
    /// downloaded (holding no thread while the server answers) and cached on `lane`.
    /// - Parameters:
    ///   - caching: false for a drop, whose bytes the library keeps once they prove to be an image.
    ///   - cancellation: stops the work from another thread; `then` hears "cancelled".
    ///   - arrivingOn: the lane the bytes are handed over on (and a download cached on): the CPU lane when
    ///     they are decoded next, in the same job, so a burst of answers keeps one background thread busy,
    ///     not two, and a download's bytes count against the transfer budget until they are decoded.
    ///   - progress: bytes received and expected (if known), on the transfer thread; return false to stop.
    public func fetch(
        _ url: String, sha256: String? = nil, priority: JobPriority,
        cancellation: CancellationToken = CancellationToken(), arrivingOn lane: JobScheduler.Lane = .io,
        caching: Bool = true, progress: @escaping @Sendable (Int64, Int64?) -> Bool = { _, _ in true },
        then: @escaping @Sendable (Result<Data, LoadFailure>) -> Void
    ) {
        fetchAnswer(
            url, sha256: sha256, priority: priority, cancellation: cancellation, arrivingOn: lane, caching: caching,
            progress: progress
        ) { then($0.map(\.data)) }
    }

    /// `fetch`, telling also where the bytes came from: the address a download ended at, after redirects.
    /// A download that answers with a page stops once `maximumPageBytes` of it have come, when given.
    public func fetchAnswer(
        _ url: String, sha256: String? = nil, priority: JobPriority,
        cancellation: CancellationToken = CancellationToken(), arrivingOn lane: JobScheduler.Lane = .io,
        caching: Bool = true, maximumPageBytes: Int64? = nil,
        progress: @escaping @Sendable (Int64, Int64?) -> Bool = { _, _ in true },
        then: @escaping @Sendable (Result<FetchedBytes, LoadFailure>) -> Void
    ) {
        scheduler.submit(.io, priority) { [self] in
            if cancellation.isCancelled { return then(.failure(LoadFailure(.cancelled))) }
            var local: Result<Data, LoadFailure>?
            let then = awaitingOriginal(sha256, then)
            if let sha256, case .success(let kept) = originals.read(sha256) { local = .success(kept) }
            if let local = (local ?? bytesAtHand(for: url))?.map({ FetchedBytes(data: $0, address: url) }) {
                guard lane == .io else { return scheduler.submit(lane, priority) { then(local) } }
                return then(local)
            }
            download(
                url, sha256: sha256, priority: priority, cancellation: cancellation, thenEvenIfCancelled: true,
                on: lane, caching: caching, maximumPageBytes: maximumPageBytes, progress: progress, then: then)
        }
    }

    /// Downloads `url` and calls `then` on `lane`, where the bytes are cached first (kept as the original
    /// `sha256` instead when they are those bytes); once `cancellation` is cancelled, with "cancelled" if
    /// `thenEvenIfCancelled`, else not at all. The bytes count against the transfer budget until `then`
    /// returns. An address on the local network that the user here did not add or approve is not asked for.
    func download(
        _ url: String, sha256: String? = nil, priority: JobPriority, cancellation: CancellationToken,
        thenEvenIfCancelled: Bool, on lane: JobScheduler.Lane, caching: Bool = true, maximumPageBytes: Int64? = nil,
        progress: @escaping @Sendable (Int64, Int64?) -> Bool,
        then: @escaping @Sendable (Result<FetchedBytes, LoadFailure>) -> Void
    ) {
        if localAddresses?.needsApproval(url) == true {
            let skipped = thenEvenIfCancelled ? nil : cancellation
            return scheduler.submit(lane, priority, cancellation: skipped) { then(.failure(.onLocalNetwork)) }
        }
        let waiter = SharedDownload.Waiter(
            sha256: sha256, cancellation: cancellation, thenEvenIfCancelled: thenEvenIfCancelled, lane: lane,
            caching: caching, progress: progress, then: then)
        // The same address already on its way (a cell's, while the library or an export asks): one download.
        if let running = downloads.withLock({ $0[url] }), running.join(waiter, priority: priority) { return }
        let shared = SharedDownload(priority: priority, first: waiter) { [scheduler] waiter in
            guard waiter.thenEvenIfCancelled else { return }
            scheduler.submit(waiter.lane, priority) { waiter.then(.failure(LoadFailure(.cancelled))) }
        }
        downloads.withLock { $0[url] = shared }
        var limits = HTTPClient.Limits()
        limits.maximumPageBytes = maximumPageBytes
        // A name that looks public may still lead into the user's network: checked where the request goes.
        limits.publicAddressesOnly = localAddresses.map { !$0.isApproved(url) } ?? false
        HTTPClient.start(
            url, limits: limits, priority: priority, cancellation: shared.cancellation, progress: shared.progress
        ) {
            [self] downloaded in
            downloads.withLock { if $0[url] === shared { $0[url] = nil } }
            // On the transfer thread, which serves every download: the file is written elsewhere.
            for waiter in shared.finish() {
                let skipped = waiter.thenEvenIfCancelled ? nil : waiter.cancellation
                scheduler.submit(waiter.lane, priority, cancellation: skipped) { [self] in
                    withExtendedLifetime(downloaded) {
                        guard !waiter.cancellation.isCancelled else {
                            return waiter.then(.failure(LoadFailure(.cancelled)))
                        }
                        waiter.then(kept(downloaded, for: url, sha256: waiter.sha256, caching: waiter.caching))
                    }
                }
            }
        }
    }

    /// Fetches `urls` one after another, calling `each` with every result in their order, then `done`,
    /// on I/O threads: a long list never holds more than one image's bytes at once.
    public func fetchEach(
        _ images: [GalleryImage], priority: JobPriority, cancellation: CancellationToken = CancellationToken(),
        each: @escaping @Sendable (Int, Result<Data, LoadFailure>) -> Void, done: @escaping @Sendable () -> Void
    ) {
        fetchEach(images[...], priority: priority, cancellation: cancellation, each: each, done: done)
    }

    private func fetchEach(
        _ urls: ArraySlice<GalleryImage>, priority: JobPriority, cancellation: CancellationToken,
        each: @escaping @Sendable (Int, Result<Data, LoadFailure>) -> Void, done: @escaping @Sendable () -> Void
    ) {
        guard let image = urls.first else { return done() }
        fetch(image.url, sha256: image.original?.sha256, priority: priority, cancellation: cancellation) {
            [self] result in
            each(urls.startIndex, result)
            fetchEach(urls.dropFirst(), priority: priority, cancellation: cancellation, each: each, done: done)
        }
    }

    /// The bytes when no download is needed (a data: URI, a file, a download cached before), or
    /// why there are none; nil when they must be downloaded.
    func bytesAtHand(for url: String) -> Result<Data, LoadFailure>? {
        if url.hasPrefix("data:") {
            // Measured before it is decoded, and decoded once, into a buffer of its size.
            let invalid = LoadFailure(description: tr("invalid data: URI"))
            guard let byteCount = DropPayload.dataURIByteCount(url) else { return .failure(invalid) }
            guard Int64(byteCount) <= ImageLimits.maximumDownloadBytes else {
                return .failure(LoadFailure(.tooLarge(limit: ImageLimits.maximumDownloadBytes)))
            }
            return DropPayload.decodeDataURI(url).map { .success($0.data) } ?? .failure(invalid)
        }
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased() else {
            return .failure(LoadFailure(description: tr("not a valid address")))
        }
        switch scheme {
        case "file":
            do throws(FileReader.Failure) {
                return .success(try FileReader.read(parsed.path))
            } catch {
                return .failure(LoadFailure(error))
            }
        case "http", "https":
            return (try? FileReader.read(cacheFile(for: url).path)).map { .success($0) }
        default:
            return .failure(LoadFailure(description: tr("{scheme}: addresses are not supported", ["scheme": scheme])))
        }
    }

    /// A download's bytes, cached for next time, or kept again as the original `sha256` (lost from the
    /// library's folder) when they are its bytes.
    private func kept(_ downloaded: HTTPClient.Outcome, for url: String, sha256: String?, caching: Bool)
        -> Result<FetchedBytes, LoadFailure>
    {
        switch downloaded {
        case .success(let response):
            if let sha256, Checksum.sha256(response.body) == sha256 {
                try? originals.repair(response.body, named: sha256)
            } else if caching {
                store(response.body, for: url)
            }
            return .success(
                FetchedBytes(
                    data: response.body, address: response.finalURL,
                    isPage: PageHTML.isPage(response.body, contentType: response.contentType)))
        case .failure(let error):
            return .failure(LoadFailure(error))
        }
    }

    /// Keeps bytes for `url` so the next launch needs no network (also bytes a drag carried).
    public func store(_ data: Data, for url: String) {
        guard url.hasPrefix("http:") || url.hasPrefix("https:") else { return }
        do {
            try FileWriter.makeFolders(cacheDirectory.path)
            try FileWriter.cache.write(data, to: cacheFile(for: url).path, policy: .replace)
        } catch {
            // A cache that cannot be written only costs a download next time.
        }
    }

    public func removeCached(_ url: String) {
        guard url.hasPrefix("http:") || url.hasPrefix("https:") else { return }
        try? FileManager.default.removeItem(at: cacheFile(for: url))
    }

    /// A file other applications can take for `image` (a file manager copies it, a chat app uploads
    /// it): the file itself for file://, else a copy of its kept original, or a link to the cached
    /// download, under a readable name with the right extension. nil when there is no local copy yet, or
    /// when its bytes are no image (`OutgoingImageFile`): a `file://` address another computer wrote may
    /// name any file here. Cheap (a hard link, one file read and written), so it may run while GTK asks for drag data.
    public func shareableFile(for image: GalleryImage) -> URL? {
        let label = image.label
        // The bytes that hash to the original's name, never the file itself: what is on disk may have been
        // replaced (another computer's link, bytes changed in place).
        let kept: (sha256: String, data: Data)? = image.original.flatMap { original in
            guard case .success(let data) = originals.read(original.sha256) else { return nil }
            return (original.sha256, data)
        }
        guard let parsed = URL(string: image.url) else { return nil }
        if parsed.isFileURL && kept == nil {
            let head = try? FileReader.head(parsed.path, count: 4096)
            return head.map(OutgoingImageFile.mayLeave) == true ? parsed : nil
        }
        let cached = cacheFile(for: image.url)
        guard let head = kept.map({ $0.data.prefix(4096) }) ?? (try? FileReader.head(cached.path, count: 4096)),
            OutgoingImageFile.mayLeave(head)
        else {
            return nil
        }
        var name = label.replacingOccurrences(of: "/", with: "_")
        if let format = ImageFormat.sniff(head),
            !format.fileExtensions.contains(where: { name.lowercased().hasSuffix(".\($0)") })
        {
            name += ".\(format.fileExtension)"
        }
        let folder = cacheDirectory.appendingPathComponent("drag-out", isDirectory: true)
            .appendingPathComponent(String((kept?.sha256 ?? cached.lastPathComponent).prefix(16)), isDirectory: true)
        let file = folder.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: file.path) { return file }
        do {
            try FileWriter.makeFolders(folder.path)
            // The library's own copy is never shared as a link: an editor writing the file in place would change it.
            if let kept {
                try FileWriter.cache.write(kept.data, to: file.path, policy: .replace)
            } else if link(cached.path, file.path) != 0 {
                try FileManager.default.copyItem(at: cached, to: file)
            }
            return file
        } catch {
            return nil
        }
    }

    /// Deletes imported images (bytes with no address of their own, kept in `directory`) that no
    /// gallery refers to, as `LaunchUpkeep` does with downloads. A file counts as referred to when any
    /// file:// address names it: its name is its bytes' SHA-256, so only the same bytes share it.
    public func pruneImports(
        in directory: URL, keeping urls: @autoclosure () -> Set<String>, writtenBefore launch: Date
    ) {
        let files = files(in: directory)
        guard !files.isEmpty else { return }
        removeUnreferenced(
            files, keeping: Set(urls().compactMap(Self.importName)), writtenBefore: launch, regularFilesOnly: true)
    }

    /// The name of the cached download of `url`.
    public static func cacheName(of url: String) -> String { Checksum.sha256(url) }

    /// The name of the imported file a file:// address names; nil for any other address (parsed only when it starts
    /// as a file:// address does: a library of a million web addresses parses none).
    public static func importName(of url: String) -> String? {
        guard url.utf8.prefix(5).lazy.map({ $0 | 0x20 }).elementsEqual("file:".utf8) else { return nil }
        return URL(string: url).flatMap { $0.isFileURL ? $0.lastPathComponent : nil }
    }

    /// The files of `directory` (the cache's, the imports'), for a removal of those no gallery refers to: listed
    /// before any name is worked out, so that a library of 200,000 images hashes or parses its addresses only when
    /// there is something to delete.
    public func files(in directory: URL) -> [URL] {
        (try? FileManager.default.contentsOfDirectory(
            at: directory, includingPropertiesForKeys: [.contentModificationDateKey, .isRegularFileKey])) ?? []
    }

    /// Deletes those of `files` whose names are not in `names` and that were written before `launch` (this
    /// session's stay), with their thumbnails; with `regularFilesOnly`, folders and links stay.
    public func removeUnreferenced(
        _ files: some Sequence<URL>, keeping names: Set<String>, writtenBefore launch: Date, regularFilesOnly: Bool
    ) {
        for file in files where !names.contains(file.lastPathComponent) {
            let values = try? file.resourceValues(forKeys: [.contentModificationDateKey, .isRegularFileKey])
            if regularFilesOnly && values?.isRegularFile != true { continue }
            if (values?.contentModificationDate ?? .distantFuture) < launch {
                thumbnails.remove(thumbnailsOf: file.path)
                try? FileManager.default.removeItem(at: file)
            }
        }
    }
}
