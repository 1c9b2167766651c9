import Foundation
import GLibKit
import GalleryCore
import GalleryIO
import GtkKit

/// One dropped image on its way through the pipeline. Each of its addresses in turn is fetched (a
/// download holds no thread), kept in the library's originals and decoded at its place in drop order;
/// the first address that gives a picture wins, else the bytes the drag carried. An image on disk is
/// read where it is, and not kept.
struct DropTransfer: Sendable {
    /// The address recorded, the picture, and the original kept (nil for a file on disk).
    typealias Arrival = (url: String, decoded: DecodedImage<CairoSurface>, original: KeptOriginal?)
    typealias Outcome = Result<Arrival, LoadFailure>

    let image: DroppedImage
    let scale: Int
    /// Its turn among dropped images.
    let priority: JobPriority
    let pipeline: ImagePipeline
    let cancellation: CancellationToken
    let throttle = ProgressThrottle()
    let progress: @Sendable (Double) -> Void
    let done: @Sendable (Outcome) -> Void
    /// Hears the page an address answered with HTML instead of an image, read for its images (`PageHTML`);
    /// nil: such an answer fails as any other that is no image.
    var page: (@Sendable (PageCapture) -> Void)? = nil

    /// Tries the address at `index`: the dragged address first, then other addresses of the same
    /// image (a srcset's original, the thumbnail behind a search result), one at a time and at most
    /// `ImageLimits.maximumAddressesPerImage` (`DroppedImage.addressesToTry`); the first failure is the one told.
    func attempt(_ index: Int, firstFailure: LoadFailure?) {
        let addresses = image.addressesToTry
        guard addresses.indices.contains(index) else {
            return fallBack(firstFailure ?? LoadFailure(description: tr("no address")))
        }
        let url = addresses[index]
        let progress: @Sendable (Int64, Int64?) -> Bool = { [self] received, expected in
            guard let expected, expected > 0 else { return true }
            let fraction = Double(received) / Double(expected)
            if throttle.shouldReport(fraction) { self.progress(fraction) }
            return true
        }
        // Decoded next: the answer is handed over and decoded in one job on the CPU lane, and kept only once
        // it proves an image.
        // A page is read only up to the HTML cap, so it is downloaded no further.
        pipeline.bytes.fetchAnswer(
            url, priority: priority, cancellation: cancellation, arrivingOn: .cpu, caching: false,
            maximumPageBytes: page == nil ? nil : Int64(PageLimits.maximumHTMLBytes), progress: progress
        ) { [self] fetched in
            switch fetched {
            case .failure(let failure):
                attempt(index + 1, firstFailure: firstFailure ?? failure)
            case .success(let answer):
                let bytes = answer.data
                if let page, answer.isPage {
                    // Read where the page was found, after redirects: its relative addresses are relative to that.
                    let capture = PagePicker.reachable(PageHTML.capture(bytes, pageAddress: answer.address))
                    guard capture.images.isEmpty else { return page(capture) }
                    return done(.failure(LoadFailure(description: tr("it is a web page without images"))))
                }
                bringIn(bytes, from: url) { failure in attempt(index + 1, firstFailure: firstFailure ?? failure) }
            }
        }
    }

    /// The request for a dropped image: fitted into the x-large thumbnail size, whose thumbnail it leaves
    /// behind (beside its kept original), so the cell that shows it decodes its exact size from that small file;
    /// its likeness is measured from those pixels.
    private func request(_ url: String, _ sha256: String?, _ bytes: Data) -> PictureRequest {
        let box = ThumbnailSize.xLarge.pixels
        return PictureRequest(
            url: url, sha256: sha256, bytes: bytes, fit: .cell(width: box, height: box, cornerRadius: 0), scale: scale,
            measuresLikeness: true)
    }

    /// Keeps `bytes` (unless they are a file on disk), decodes them, and hands the arrival to `done`; when
    /// they are no picture, the bytes kept for them go and `otherwise` hears why. `url` is recorded, or
    /// for bytes with no address of their own (a data: URI, what the drag carried) the kept file's.
    private func bringIn(_ bytes: Data, from url: String?, otherwise: @escaping @Sendable (LoadFailure) -> Void) {
        guard !cancellation.isCancelled else { return }
        let isOnDisk = url.flatMap(URL.init(string:))?.isFileURL == true
        let store = pipeline.bytes.originals
        let sha256 = isOnDisk ? nil : Checksum.sha256(bytes)
        let keptBefore = sha256.flatMap(store.existingPath(for:)) != nil
        if let sha256 {
            do throws(FileError) {
                try store.keep(bytes, named: sha256)
            } catch {
                // A full disk fails this image alone, and the state never names bytes that are not there.
                return done(
                    .failure(
                        LoadFailure(description: tr("it could not be kept: {reason}", ["reason": error.description])))
                )
            }
        }
        let recorded =
            url.flatMap { $0.hasPrefix("data:") ? nil : $0 }
            ?? sha256.flatMap(store.path(for:)).flatMap(FileURI.from(path:))
        // Decoded in the job the bytes arrived in: they count against the transfer budget until then.
        switch pipeline.pictureNow(request(url ?? "", sha256, bytes)) {
        case .success(let decoded):
            let original = sha256.map { name in
                KeptOriginal(
                    sha256: name, byteCount: bytes.count, pixelWidth: decoded.originalWidth,
                    pixelHeight: decoded.originalHeight,
                    format: ImageFormat.sniff(bytes.prefix(4096))?.name.lowercased())
            }
            done(.success((recorded ?? url ?? "", decoded, original)))
        case .failure(let failure):
            // Whatever the server sent instead of an image is not worth keeping.
            if let sha256, !keptBefore { store.remove(sha256) }
            otherwise(failure)
        }
    }

    /// Every address failed, but the drag may have carried the image itself.
    private func fallBack(_ failure: LoadFailure) {
        guard let bytes = image.fallbackBytes else { return done(.failure(failure)) }
        let url = image.url.flatMap { $0.hasPrefix("http") ? $0 : nil }
        bringIn(bytes, from: url) { [self] _ in done(.failure(failure)) }
    }
}
