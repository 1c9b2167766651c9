import Foundation
import GLibKit
import GalleryCore

extension ImagePipeline {
    /// The frames of the animated GIF, WebP or PNG `request` names, fitted inside its `.within` size, or nil when it is no
    /// animation, holds too little to play or more than `ImageLimits` allow; handed to `then` on the GTK thread
    /// unless `cancellation` is cancelled first. The bytes are read where they are (the viewer asks once its picture
    /// is decoded, so a download is at hand).
    public func animation(
        _ request: PictureRequest, priority: JobPriority = .viewer, cancellation: CancellationToken,
        onMain then: @escaping @Sendable @MainActor (AnimationFrames?) -> Void
    ) {
        let source = bytes
        let scheduler = scheduler
        scheduler.submit(.cpu, priority, cancellation: cancellation) {
            let frames = Self.animationFrames(request, source: source, scheduler: scheduler, priority: priority)
            guard !cancellation.isCancelled else { return }
            MainContext.post { then(frames) }
        }
    }

    private static func animationFrames(
        _ request: PictureRequest, source: ImageBytesSource, scheduler: JobScheduler, priority: JobPriority
    ) -> AnimationFrames? {
        let original = source.localOriginal(for: request.url, sha256: request.sha256)
        let isKept = request.sha256.flatMap(source.originals.path(for:)) == original?.path
        guard case .success(let data) = bytes(for: request, original: original, isKept: isKept, source: source),
            let header = AnimationHeader.read(data),
            case .within(let width, let height) = request.fit
        else { return nil }
        let canvasBytes = FrameBudget.frameBytes(width: header.width, height: header.height)
        // What the decoder holds besides frames of the size shown: gdk-pixbuf (a GIF's frames kept compressed) and
        // libwebp compose on a canvas of the file's size and keep the one before; the APNG reader composes at the
        // size shown (its canvas, the canvas before a frame and a frame being decoded) from frames it wraps as PNGs.
        let decoderBytes: Int
        let shownCopies: Int
        switch header.format {
        case .gif, .webp: (decoderBytes, shownCopies) = (data.count + canvasBytes * 2, 0)
        case .png: (decoderBytes, shownCopies) = (data.count * 2, 3)
        }
        // Fitted inside the view, never enlarged, and smaller still when two frames of that size would not fit.
        var factor = min(
            Double(width) / Double(max(header.width, 1)), Double(height) / Double(max(header.height, 1)), 1)
        let room = ImageLimits.animationBudgetBytes - decoderBytes
        let twoFrames = Double(2 + shownCopies) * Double(canvasBytes) * factor * factor
        if room <= 0 { return nil }
        if twoFrames > Double(room) { factor *= (Double(room) / twoFrames).squareRoot() }
        let size = (
            width: max(1, Int(Double(header.width) * factor)), height: max(1, Int(Double(header.height) * factor))
        )
        let shownBytes = FrameBudget.frameBytes(width: size.width, height: size.height)
        let budget = FrameBudget(
            frameBytes: shownBytes, decoderBytes: decoderBytes + shownCopies * shownBytes,
            frameCount: header.frameCount)
        guard budget.canPlay, let decoder = frameSource(header, data, size: size) else { return nil }
        return AnimationFrames(
            header: header, decoder: decoder, budget: budget, size: size, scale: request.scale, scheduler: scheduler,
            priority: priority)
    }

    /// The decoder of `data`'s frames, at its first frame: the APNG reader's at `size`, the others' at the file's size.
    private static func frameSource(
        _ header: AnimationHeader, _ data: Data, size: (width: Int, height: Int)
    ) -> (any FrameSource)? {
        switch header.format {
        case .gif: PixbufAnimation.read(data, until: .now + .seconds(ImageLimits.decodeSeconds))
        // gdk-pixbuf's WebP loader decodes and keeps every frame: libwebp's own decoder holds one canvas.
        case .webp: WebPAnimation.read(data, frameCount: header.frameCount)
        case .png: APNGFile.read(data).flatMap { APNGAnimation(file: $0, width: size.width, height: size.height) }
        }
    }
}
