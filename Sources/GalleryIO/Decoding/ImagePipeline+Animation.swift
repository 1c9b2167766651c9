import Foundation
import GLibKit
import GalleryCore

extension ImagePipeline {
    /// The frames of the animated GIF `request` names, fitted inside its `.within` size, or nil when it is no
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
            // gdk-pixbuf's WebP loader keeps every frame it decoded and steps its frames one late: a WebP shows its
            // first frame, as a still.
            header.format == .gif,
            case .within(let width, let height) = request.fit
        else { return nil }
        let canvasBytes = FrameBudget.frameBytes(width: header.width, height: header.height)
        // gdk-pixbuf keeps a GIF's frames compressed and composes them on a canvas.
        let decoderBytes = data.count + canvasBytes * 2
        // Fitted inside the view, never enlarged, and smaller still when two frames of that size would not fit.
        var factor = min(
            Double(width) / Double(max(header.width, 1)), Double(height) / Double(max(header.height, 1)), 1)
        let room = ImageLimits.animationBudgetBytes - decoderBytes
        let twoFrames = 2 * Double(canvasBytes) * factor * factor
        if room <= 0 { return nil }
        if twoFrames > Double(room) { factor *= (Double(room) / twoFrames).squareRoot() }
        let size = (
            width: max(1, Int(Double(header.width) * factor)), height: max(1, Int(Double(header.height) * factor))
        )
        let budget = FrameBudget(
            frameBytes: FrameBudget.frameBytes(width: size.width, height: size.height), decoderBytes: decoderBytes)
        guard budget.canPlay,
            let decoder = PixbufAnimation.read(data, until: .now + .seconds(ImageLimits.decodeSeconds))
        else { return nil }
        return AnimationFrames(
            header: header, decoder: decoder, budget: budget, size: size, scale: request.scale, scheduler: scheduler,
            priority: priority)
    }
}
