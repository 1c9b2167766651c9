import Foundation
import GalleryCore
import GtkKit

/// Gets an image's bytes from wherever its URL points: the disk cache or the network for
/// http(s), the file system for file://, the URL itself for data:. Runs on worker threads.
public final class ImageBytesSource: Sendable {
    public let cacheDirectory: URL
    public let thumbnails: ThumbnailCache
    public let scheduler: JobScheduler

    public init(cacheDirectory: URL, thumbnails: ThumbnailCache, scheduler: JobScheduler) {
        self.cacheDirectory = cacheDirectory
        self.thumbnails = thumbnails
        self.scheduler = scheduler
    }

    /// The local file the image at `url` is read from, when there is one now: the file itself for
    /// file://, the cached download for http(s).
    public func localOriginal(for url: String) -> ThumbnailCache.Original? {
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

    public func cacheFile(for url: String) -> URL {
        cacheDirectory.appendingPathComponent(Checksum.sha256(url))
    }

    /// Gets the bytes of the image at `url` and calls `then` with them exactly once: read on the I/O
    /// lane when they are at hand, else downloaded (holding no thread while the server answers) and
    /// cached on the lane `then` runs on.
    /// - Parameters:
    ///   - cancellation: stops the work from another thread; `then` hears "cancelled".
    ///   - arrivingOn: the lane a download is cached and handed over on: the CPU lane when the bytes
    ///     are decoded next, so a burst of answers keeps one background thread busy, not two.
    ///   - progress: bytes received and expected (if known), on the transfer thread; return false to stop.
    public func fetch(
        _ url: String, priority: JobPriority, cancellation: CancellationToken = CancellationToken(),
        arrivingOn lane: JobScheduler.Lane = .io,
        progress: @escaping @Sendable (Int64, Int64?) -> Bool = { _, _ in true },
        then: @escaping @Sendable (Result<Data, LoadFailure>) -> Void
    ) {
        scheduler.submit(.io, priority) { [self] in
            if cancellation.isCancelled { return then(.failure(LoadFailure(.cancelled))) }
            if let local = bytesAtHand(for: url) { return then(local) }
            download(
                url, priority: priority, cancellation: cancellation, thenEvenIfCancelled: true, on: lane,
                progress: progress, then: then)
        }
    }

    /// Downloads `url` and calls `then` on `lane`, where the bytes are cached first; once `cancellation`
    /// is cancelled, with "cancelled" if `thenEvenIfCancelled`, else not at all.
    func download(
        _ url: String, priority: JobPriority, cancellation: CancellationToken, thenEvenIfCancelled: Bool,
        on lane: JobScheduler.Lane, progress: @escaping @Sendable (Int64, Int64?) -> Bool,
        then: @escaping @Sendable (Result<Data, LoadFailure>) -> Void
    ) {
        HTTPClient.start(url, cancellation: cancellation, progress: progress) { [self] downloaded in
            // On the transfer thread, which serves every download: the file is written elsewhere.
            scheduler.submit(lane, priority, cancellation: thenEvenIfCancelled ? nil : cancellation) { [self] in
                then(kept(downloaded, for: url))
            }
        }
    }

    /// Fetches `urls` one after another, calling `each` with every result in their order, then `done`,
    /// on I/O threads: a long list never holds more than one image's bytes at once.
    public func fetchEach(
        _ urls: [String], priority: JobPriority, cancellation: CancellationToken = CancellationToken(),
        each: @escaping @Sendable (Int, Result<Data, LoadFailure>) -> Void, done: @escaping @Sendable () -> Void
    ) {
        fetchEach(urls[...], priority: priority, cancellation: cancellation, each: each, done: done)
    }

    private func fetchEach(
        _ urls: ArraySlice<String>, priority: JobPriority, cancellation: CancellationToken,
        each: @escaping @Sendable (Int, Result<Data, LoadFailure>) -> Void, done: @escaping @Sendable () -> Void
    ) {
        guard let url = urls.first else { return done() }
        fetch(url, priority: priority, cancellation: cancellation) { [self] result in
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

    /// A download's bytes, cached for next time.
    private func kept(_ downloaded: HTTPClient.Outcome, for url: String) -> Result<Data, LoadFailure> {
        switch downloaded {
        case .success(let response):
            store(response.body, for: url)
            return .success(response.body)
        case .failure(let error):
            return .failure(LoadFailure(error))
        }
    }

    /// Keeps bytes for `url` so the next launch needs no network (also bytes a drag carried).
    public func store(_ data: Data, for url: String) {
        guard url.hasPrefix("http:") || url.hasPrefix("https:") else { return }
        do {
            try FileManager.default.createDirectory(at: cacheDirectory, withIntermediateDirectories: true)
            try FileWriter.cache.write(data, to: cacheFile(for: url).path, policy: .replace)
        } catch {
            // A cache that cannot be written only costs a download next time.
        }
    }

    public func removeCached(_ url: String) {
        guard url.hasPrefix("http:") || url.hasPrefix("https:") else { return }
        try? FileManager.default.removeItem(at: cacheFile(for: url))
    }

    /// A file other applications can take for the image at `url` (a file manager copies it, a chat
    /// app uploads it): the file itself for file://, else a link to the cached download under a
    /// readable name with the right extension. nil when there is no local copy yet.
    /// Cheap (a hard link), so it may run while GTK asks for drag data.
    public func shareableFile(for url: String, label: String) -> URL? {
        guard let parsed = URL(string: url) else { return nil }
        if parsed.isFileURL { return parsed }
        let cached = cacheFile(for: url)
        guard let head = try? FileReader.head(cached.path, count: 64) else { return nil }
        var name = label.replacingOccurrences(of: "/", with: "_")
        if let format = ImageFormat.sniff(head),
            !format.fileExtensions.contains(where: { name.lowercased().hasSuffix(".\($0)") })
        {
            name += ".\(format.fileExtension)"
        }
        let folder = cacheDirectory.appendingPathComponent("drag-out", isDirectory: true)
            .appendingPathComponent(String(cached.lastPathComponent.prefix(16)), isDirectory: true)
        let file = folder.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: file.path) { return file }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            if link(cached.path, file.path) != 0 { try FileManager.default.copyItem(at: cached, to: file) }
            return file
        } catch {
            return nil
        }
    }

    /// Deletes cached downloads no gallery refers to any more. Run at launch, when nothing can be
    /// undone yet; files written since `launch` (this session's drops) stay.
    public func pruneCache(keeping urls: Set<String>, writtenBefore launch: Date) {
        let keep = Set(urls.map(Checksum.sha256))
        let files =
            (try? FileManager.default.contentsOfDirectory(
                at: cacheDirectory, includingPropertiesForKeys: [.contentModificationDateKey])) ?? []
        for file in files where !keep.contains(file.lastPathComponent) {
            let modified =
                (try? file.resourceValues(forKeys: [.contentModificationDateKey]))?.contentModificationDate
                ?? .distantFuture
            if modified < launch {
                thumbnails.remove(thumbnailsOf: file.path)
                try? FileManager.default.removeItem(at: file)
            }
        }
    }
}
