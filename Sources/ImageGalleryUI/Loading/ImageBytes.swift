import Foundation
import GalleryCore
import GtkKit

/// Why an image could not be shown, in words short enough for a cell or a toast.
struct LoadFailure: Error, Equatable, Sendable, CustomStringConvertible {
    let description: String
}

extension LoadFailure {
    init(_ error: DownloadError) {
        description = switch error {
        case .status(let code): tr("HTTP {code}", ["code": String(code)])
        case .tooLarge(let limit): tr("larger than {megabytes} MB", ["megabytes": Localization.number(Int(limit / 1_000_000))])
        case .timedOut: tr("timed out")
        case .tooSlow: tr("the server is too slow")
        case .cancelled: tr("cancelled")
        case .refusedProtocol: tr("only http and https are downloaded")
        case .tooManyRedirects: tr("too many redirects")
        case .serverNotFound: tr("server not found")
        case .couldNotConnect: tr("could not connect")
        case .closedEarly: tr("the connection closed early")
        case .insecure: tr("the secure connection failed")
        case .network(let code): tr("download failed ({code})", ["code": String(code)])
        }
    }

    /// An image in a format this system has no decoder for says which package would show it.
    init(_ error: DecodeError, decoding bytes: Data) {
        description = switch error {
        case .notAnImage:
            if let format = ImageFormat.sniff(Array(bytes.prefix(4096))), let package = format.loaderPackage {
                tr("{format} images need {package}", ["format": format.name, "package": package])
            } else {
                tr("not an image")
            }
        case .tooLarge(let width, let height):
            tr("image too large ({width}×{height})", ["width": Localization.number(width), "height": Localization.number(height)])
        case .incomplete: tr("the image is incomplete")
        case .damaged: tr("the image is damaged")
        case .undecodable(let reason): reason ?? tr("the image could not be decoded")
        }
    }
}

/// Gets an image's bytes from wherever its URL points: the disk cache or the network for
/// http(s), the file system for file://, the URL itself for data:. Runs on worker threads.
final class ImageBytesSource: Sendable {
    let cacheDirectory: URL
    let thumbnails: ThumbnailCache

    init(cacheDirectory: URL, thumbnails: ThumbnailCache) {
        self.cacheDirectory = cacheDirectory
        self.thumbnails = thumbnails
    }

    /// The local file the image at `url` is read from, when there is one now: the file itself for
    /// file://, the cached download for http(s).
    func localOriginal(for url: String) -> ThumbnailCache.Original? {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased() else { return nil }
        switch scheme {
        case "file": return ThumbnailCache.Original(path: parsed.path)
        case "http", "https": return ThumbnailCache.Original(path: cacheFile(for: url).path)
        default: return nil
        }
    }

    func cacheFile(for url: String) -> URL {
        cacheDirectory.appendingPathComponent(Checksum.sha256(url))
    }

    /// The bytes of the image at `url`, downloaded while the calling thread waits when they are
    /// not at hand.
    /// - Parameters:
    ///   - progress: bytes received and expected (if known); return false to stop.
    ///   - cancellation: stops the download from another thread (its placeholder was deleted).
    func bytes(for url: String, cancellation: DownloadCancellation? = nil,
               progress: @escaping @Sendable (Int64, Int64?) -> Bool = { _, _ in true }) -> Result<Data, LoadFailure> {
        if let local = bytesAtHand(for: url) { return local }
        return kept(HTTPClient.download(url, cancellation: cancellation, progress: progress), for: url)
    }

    /// Like `bytes(for:)`, but a download holds no thread while the server answers: `then` gets
    /// the bytes on a thread of `pool` (at once, on this one, when they are at hand).
    func fetch(_ url: String, cancellation: DownloadCancellation, finishingOn pool: WorkerPool,
               progress: @escaping @Sendable (Int64, Int64?) -> Bool,
               then: @escaping @Sendable (Result<Data, LoadFailure>) -> Void) {
        if let local = bytesAtHand(for: url) { return then(local) }
        HTTPClient.start(url, cancellation: cancellation, progress: progress) { [self] downloaded in
            // On the transfer thread, which serves every download: the file is written elsewhere.
            pool.submit { [self] in then(kept(downloaded, for: url)) }
        }
    }

    /// The bytes when no download is needed (a data: URI, a file, a download cached before), or
    /// why there are none; nil when they must be downloaded.
    private func bytesAtHand(for url: String) -> Result<Data, LoadFailure>? {
        if url.hasPrefix("data:") {
            guard let decoded = DropPayload.decodeDataURI(url) else { return .failure(LoadFailure(description: tr("invalid data: URI"))) }
            return .success(decoded.data)
        }
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased() else {
            return .failure(LoadFailure(description: tr("not a valid address")))
        }
        switch scheme {
        case "file":
            guard let data = FileManager.default.contents(atPath: parsed.path) else {
                return .failure(LoadFailure(description: tr("file not found")))
            }
            return .success(data)
        case "http", "https":
            return FileManager.default.contents(atPath: cacheFile(for: url).path).map { .success($0) }
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
    func store(_ data: Data, for url: String) {
        guard url.hasPrefix("http:") || url.hasPrefix("https:") else { return }
        do {
            try FileManager.default.createDirectory(at: cacheDirectory, withIntermediateDirectories: true)
            try FileWriter.cache.write(data, to: cacheFile(for: url).path, policy: .replace)
        } catch {
            // A cache that cannot be written only costs a download next time.
        }
    }

    func removeCached(_ url: String) {
        try? FileManager.default.removeItem(at: cacheFile(for: url))
    }

    /// A file other applications can take for the image at `url` (a file manager copies it, a chat
    /// app uploads it): the file itself for file://, else a link to the cached download under a
    /// readable name with the right extension. nil when there is no local copy yet.
    /// Cheap (a hard link), so it may run while GTK asks for drag data.
    func shareableFile(for url: String, label: String) -> URL? {
        guard let parsed = URL(string: url) else { return nil }
        if parsed.isFileURL { return parsed }
        let cached = cacheFile(for: url)
        guard let handle = FileHandle(forReadingAtPath: cached.path) else { return nil }
        let head = handle.readData(ofLength: 64)
        try? handle.close()
        var name = label.replacingOccurrences(of: "/", with: "_")
        if let format = ImageFormat.sniff(head),
           !format.fileExtensions.contains(where: { name.lowercased().hasSuffix(".\($0)") }) {
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
    func pruneCache(keeping urls: Set<String>, writtenBefore launch: Date) {
        let keep = Set(urls.map(Checksum.sha256))
        let files = (try? FileManager.default.contentsOfDirectory(at: cacheDirectory, includingPropertiesForKeys: [.contentModificationDateKey])) ?? []
        for file in files where !keep.contains(file.lastPathComponent) {
            let modified = (try? file.resourceValues(forKeys: [.contentModificationDateKey]))?.contentModificationDate ?? .distantFuture
            if modified < launch {
                thumbnails.remove(thumbnailsOf: file.path)
                try? FileManager.default.removeItem(at: file)
            }
        }
    }
}
