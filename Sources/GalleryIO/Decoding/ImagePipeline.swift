import Foundation
import GLibKit
import GalleryCore

/// The one path from "bytes wanted" to a paintable picture, for cells, the viewer and drops alike: fetched through the
/// byte source (the library's kept original, cache, disk or network), decoded on the scheduler's CPU lane with the
/// decoder's limits, from a thumbnail when one serves.
public final class ImagePipeline: Sendable {
    public let scheduler: JobScheduler
    public let bytes: ImageBytesSource

    public init(scheduler: JobScheduler, bytes: ImageBytesSource) {
        self.scheduler = scheduler
        self.bytes = bytes
    }

    /// Makes the picture `request` asks for and calls `then` with it on a worker thread, unless
    /// `cancellation` is cancelled first (then `then` is never called).
    public func picture(
        _ request: PictureRequest, priority: JobPriority, cancellation: CancellationToken,
        then: @escaping @Sendable (Result<DecodedImage<CairoSurface>, LoadFailure>) -> Void
    ) {
        let source = bytes
        let scheduler = scheduler
        scheduler.submit(.cpu, priority, cancellation: cancellation) {
            let then = source.awaitingOriginal(request.sha256, then)
            // A file on disk (or a cached download) is read where it is decoded.
            let scheme = URL(string: request.url)?.scheme?.lowercased()
            let isWeb = request.bytes == nil && (scheme == "http" || scheme == "https")
            guard isWeb, source.localOriginal(for: request.url, sha256: request.sha256) == nil else {
                let decoded = Self.decode(request, source: source)
                guard isWeb, let sha256 = request.sha256, case .failure(.damagedOriginal) = decoded else {
                    return then(decoded)
                }
                return Self.repairFromSource(
                    request, sha256: sha256, source: source, priority: priority, cancellation: cancellation, then)
            }
            // Cached and decoded in one job on the CPU lane, once the answer is in.
            source.download(
                request.url, sha256: request.sha256, priority: priority, cancellation: cancellation,
                thenEvenIfCancelled: false, on: .cpu,
                progress: { _, _ in true }
            ) { fetched in
                switch fetched {
                case .failure(let failure): then(.failure(failure))
                case .success(let fetched):
                    let data = fetched.data
                    then(
                        Self.decode(
                            PictureRequest(
                                url: request.url, sha256: request.sha256, bytes: data, fit: request.fit,
                                scale: request.scale),
                            source: source))
                }
            }
        }
    }

    /// A kept original found damaged is fetched again from its address: the same bytes are written back
    /// (see `ImageBytesSource.download`) and shown; other bytes are neither kept nor shown as the image.
    private static func repairFromSource(
        _ request: PictureRequest, sha256: String, source: ImageBytesSource, priority: JobPriority,
        cancellation: CancellationToken,
        _ then: @escaping @Sendable (Result<DecodedImage<CairoSurface>, LoadFailure>) -> Void
    ) {
        source.download(
            request.url, sha256: sha256, priority: priority, cancellation: cancellation, thenEvenIfCancelled: false,
            on: .cpu, caching: false, progress: { _, _ in true },
            then: { fetched in
                switch fetched.map(\.data) {
                case .success(let data) where Checksum.sha256(data) == sha256:
                    then(
                        Self.decode(
                            PictureRequest(
                                url: request.url, sha256: sha256, bytes: data, fit: request.fit, scale: request.scale),
                            source: source))
                case .success:
                    then(
                        .failure(
                            LoadFailure(
                                description: tr(
                                    "the library’s copy of it is damaged, and its source now sends other bytes")
                            )))
                case .failure:
                    then(.failure(.damagedOriginal))
                }
            })
    }

    /// Like `picture(_:priority:cancellation:then:)`, with the result handed to `then` on the GTK thread.
    public func picture(
        _ request: PictureRequest, priority: JobPriority, cancellation: CancellationToken,
        onMain then: @escaping @Sendable @MainActor (Result<DecodedImage<CairoSurface>, LoadFailure>) -> Void
    ) {
        picture(request, priority: priority, cancellation: cancellation) { result in
            guard !cancellation.isCancelled else { return }
            MainContext.post { then(result) }
        }
    }

    /// The picture `request` asks for, made on the calling thread: for a job on the CPU lane that holds
    /// the bytes already.
    public func pictureNow(_ request: PictureRequest) -> Result<DecodedImage<CairoSurface>, LoadFailure> {
        Self.decode(request, source: bytes)
    }

    /// The picture for `request`: from the thumbnail on disk when it is current and large enough,
    /// else decoded from the bytes or the file (leaving that thumbnail behind). Runs on the CPU lane.
    static func decode(_ request: PictureRequest, source: ImageBytesSource) -> Result<
        DecodedImage<CairoSurface>, LoadFailure
    > {
        let original = source.localOriginal(for: request.url, sha256: request.sha256)
        let isKept = request.sha256.flatMap(source.originals.path(for:)) == original?.path
        var thumbnailSize: ThumbnailSize?
        if case .cell(let width, let height, _) = request.fit, original != nil {
            thumbnailSize = ThumbnailSize.covering(width: width, height: height)
        }
        if let original, let thumbnailSize, let thumbnail = thumbnail(of: original, size: thumbnailSize, source: source)
        {
            return .success(fitted(thumbnail, request))
        }
        let data: Data
        switch Self.bytes(for: request, original: original, isKept: isKept, source: source) {
        case .success(let bytes): data = bytes
        case .failure(let failure): return .failure(failure)
        }
        // A square box: EXIF rotation turns the picture after the decoder fitted it.
        let side: Int
        switch request.fit {
        case .cell(let width, let height, _): side = thumbnailSize?.pixels ?? max(width, height)
        case .within(let width, let height): side = max(width, height)
        }
        switch ImageDecoder.decodePicture(StillImage.firstFrame(of: data), fit: (side, side)) {
        case .success(let picture):
            if let original, let thumbnailSize, request.leavesThumbnail,
                max(picture.originalWidth, picture.originalHeight) > thumbnailSize.pixels
            {
                keepThumbnail(picture, of: original, size: thumbnailSize, source: source)
            }
            return .success(fitted(picture, request))
        case .failure(let error):
            // What the server sent was no image: it is not kept for next time.
            source.removeCached(request.url)
            return .failure(LoadFailure(error, decoding: data))
        }
    }

    /// The bytes `request` names, read where they are: at hand, the library's kept original (checked against its
    /// name), the file, or the download cache. Runs on a worker.
    static func bytes(
        for request: PictureRequest, original: ThumbnailCache.Original?, isKept: Bool, source: ImageBytesSource
    ) -> Result<Data, LoadFailure> {
        if let bytes = request.bytes {
            return .success(bytes)
        } else if let sha256 = request.sha256, original != nil, isKept {
            // Checked against its name: bytes changed on disk are no longer the image's.
            switch source.originals.read(sha256) {
            case .success(let kept): return .success(kept)
            case .failure:
                guard case .success(let contents) = source.bytesAtHand(for: request.url) else {
                    return .failure(.damagedOriginal)
                }
                return .success(contents)
            }
        } else if let original {
            do throws(FileReader.Failure) {
                return .success(try FileReader.read(original.path))
            } catch {
                return .failure(LoadFailure(error))
            }
        } else {
            switch source.bytesAtHand(for: request.url) {
            case .success(let contents): return .success(contents)
            case .failure(let failure): return .failure(failure)
            case nil: return .failure(LoadFailure(description: tr("file not found")))
            }
        }
    }

    /// The thumbnail of `original` at `size`, else one made from a larger thumbnail (the x-large one a drop
    /// leaves behind, decoded from the bytes it had in memory) and kept: the original is not read and checked again.
    private static func thumbnail(
        of original: ThumbnailCache.Original, size: ThumbnailSize, source: ImageBytesSource
    ) -> DecodedImage<Pixbuf>? {
        if let thumbnail = source.thumbnails.read(original, size: size) { return thumbnail }
        for larger in ThumbnailSize.allCases where larger.pixels > size.pixels {
            guard let thumbnail = source.thumbnails.read(original, size: larger) else { continue }
            let pixbuf = thumbnail.bitmap
            let factor = Double(size.pixels) / Double(max(pixbuf.width, pixbuf.height, 1))
            guard factor < 1 else { return thumbnail }
            let scaled = DecodedImage(
                bitmap: pixbuf.scaled(
                    width: max(1, Int((Double(pixbuf.width) * factor).rounded())),
                    height: max(1, Int((Double(pixbuf.height) * factor).rounded()))),
                originalWidth: thumbnail.originalWidth, originalHeight: thumbnail.originalHeight)
            keepThumbnail(scaled, of: original, size: size, source: source)
            return scaled
        }
        return nil
    }

    /// Writes `picture` as the thumbnail of `original` on the I/O lane, after the work queued there before it: its PNG
    /// and its file cost the thread that decodes the next picture nothing (a drop of 100 photos decodes them one by one
    /// on the CPU lane while the I/O lane mostly waits). Until it is written, a cell of that image is decoded from the
    /// original, as before any thumbnail. Written here when `thumbnailsWaitingAtMost` wait already: an I/O lane held
    /// up (a slow disk) slows the decodes down rather than piling up their pixels.
    private static func keepThumbnail(
        _ picture: DecodedImage<Pixbuf>, of original: ThumbnailCache.Original, size: ThumbnailSize,
        source: ImageBytesSource
    ) {
        guard source.thumbnailsWaiting.add(1, ordering: .relaxed).newValue <= thumbnailsWaitingAtMost else {
            source.thumbnailsWaiting.subtract(1, ordering: .relaxed)
            return source.thumbnails.write(picture, of: original, size: size)
        }
        source.scheduler.submit(.io, .background) {
            source.thumbnails.write(picture, of: original, size: size)
            source.thumbnailsWaiting.subtract(1, ordering: .relaxed)
        }
    }

    /// Enough for the I/O lane to write while the CPU lane decodes the next ones: at most 8 MB of x-large pixels.
    static let thumbnailsWaitingAtMost = 8

    private static func fitted(_ picture: DecodedImage<Pixbuf>, _ request: PictureRequest) -> DecodedImage<CairoSurface>
    {
        var result = paintable(picture, request)
        if request.measuresLikeness { result.likeness = Likeness(picture.bitmap) }
        return result
    }

    private static func paintable(_ picture: DecodedImage<Pixbuf>, _ request: PictureRequest) -> DecodedImage<
        CairoSurface
    > {
        switch request.fit {
        case .cell(let width, let height, let cornerRadius):
            let fit = PixelFit(
                originalWidth: picture.originalWidth, originalHeight: picture.originalHeight,
                cellWidth: width, cellHeight: height)
            // A picture that fills its cell has the cell's round corners: it is painted without a clip.
            let fillsCell = abs(fit.width - width) <= 1 && abs(fit.height - height) <= 1
            return picture.paintable(
                width: fit.width, height: fit.height, scale: request.scale, cornerRadius: fillsCell ? cornerRadius : 0)
        case .within(let width, let height):
            let factor = min(
                Double(width) / Double(max(picture.originalWidth, 1)),
                Double(height) / Double(max(picture.originalHeight, 1)), 1)
            return picture.paintable(
                width: max(1, Int((Double(picture.originalWidth) * factor).rounded())),
                height: max(1, Int((Double(picture.originalHeight) * factor).rounded())), scale: request.scale)
        }
    }
}
