import Foundation
import GalleryCore
import GalleryIO
import GtkKit

/// One dropped image on its way through the pipeline. Each of its addresses in turn is fetched (a
/// download holds no thread) and decoded at its place in drop order; the first address that gives a
/// picture wins, else the bytes the drag carried.
struct DropTransfer: Sendable {
    typealias Outcome = Result<(url: String, decoded: DecodedImage), LoadFailure>

    let image: DroppedImage
    let scale: Int
    /// Its turn among dropped images.
    let priority: JobPriority
    let importsDirectory: URL
    let pipeline: ImagePipeline
    let cancellation: CancellationToken
    let throttle = ProgressThrottle()
    let progress: @Sendable (Double) -> Void
    let done: @Sendable (Outcome) -> Void

    /// Addresses tried for one image at most: a page's srcset of thousands of candidates costs three requests.
    static let maximumAddresses = 3

    /// Tries the address at `index`: the dragged address first, then other addresses of the same
    /// image (a srcset's original, the thumbnail behind a search result), one at a time and at most
    /// `maximumAddresses`; the first failure is the one told.
    func attempt(_ index: Int, firstFailure: LoadFailure?) {
        let addresses = ([image.url].compactMap { $0 } + image.alternateURLs).prefix(Self.maximumAddresses)
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
        // Decoded next: the answer is cached, handed over and decoded in one job on the CPU lane.
        pipeline.bytes.fetch(url, priority: priority, cancellation: cancellation, arrivingOn: .cpu, progress: progress)
        {
            [self] fetched in
            switch fetched {
            case .failure(let failure):
                pipeline.bytes.removeCached(url)
                attempt(index + 1, firstFailure: firstFailure ?? failure)
            case .success(let bytes):
                decode(bytes, from: url, attempt: index, firstFailure: firstFailure)
            }
        }
    }

    /// The request for a dropped image: fitted into the x-large thumbnail size, whose thumbnail it leaves
    /// behind, so the cell that shows it decodes its exact size from that small file.
    private func request(_ url: String, _ bytes: Data) -> PictureRequest {
        let box = ThumbnailSize.xLarge.pixels
        return PictureRequest(
            url: url, bytes: bytes, fit: .cell(width: box, height: box, cornerRadius: 0), scale: scale)
    }

    /// Decodes in the CPU-lane job the bytes arrived in.
    private func decode(_ bytes: Data, from url: String, attempt index: Int, firstFailure: LoadFailure?) {
        guard !cancellation.isCancelled else { return }
        switch pipeline.pictureNow(request(url, bytes)) {
        case .success(let decoded):
            // An embedded image is kept as a file: the state file stays small.
            let kept = url.hasPrefix("data:") ? DropDownloader.keep(bytes, mimeType: nil, in: importsDirectory) : nil
            done(.success((kept?.absoluteString ?? url, decoded)))
        case .failure(let failure):
            // Whatever the server sent instead of an image is not worth keeping.
            pipeline.bytes.removeCached(url)
            attempt(index + 1, firstFailure: firstFailure ?? failure)
        }
    }

    /// Every address failed, but the drag may have carried the image itself.
    private func fallBack(_ failure: LoadFailure) {
        guard let bytes = image.fallbackBytes else { return done(.failure(failure)) }
        pipeline.picture(request(image.url ?? "", bytes), priority: priority, cancellation: cancellation) {
            [self] decoded in
            guard case .success(let decoded) = decoded else { return done(.failure(failure)) }
            if let url = image.url, url.hasPrefix("http") {
                pipeline.bytes.store(bytes, for: url)
                done(.success((url, decoded)))
            } else if let file = DropDownloader.keep(bytes, mimeType: image.mimeType, in: importsDirectory) {
                done(.success((file.absoluteString, decoded)))
            } else {
                done(.failure(failure))
            }
        }
    }
}
