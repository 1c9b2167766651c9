import Foundation
import GLibKit
import GalleryCore
import GalleryIO

/// One cell's animation playing: its frames decoded at the cell's size on a worker, a few ahead
/// (`AnimationFrames`), each swapped in on a timer of its own when its time comes and it is ready, so every
/// animation keeps its own pace. Until its first frame is ready, and once stopped, the cell shows its still picture.
@MainActor
final class CellAnimation {
    /// The size, in device pixels, the frames are decoded at.
    let width: Int
    let height: Int
    private let cancellation = CancellationToken()
    private var frames: AnimationFrames?
    private var playback: AnimationPlayback?
    /// The frame that shows; nil until the first is decoded.
    private(set) var surface: CairoSurface?
    private var timer: UInt32?
    /// The current frame's time is over: the next one shows as soon as it is ready.
    private var isDue = false
    private let onFrame: () -> Void

    init(
        _ image: GalleryImage, width: Int, height: Int, scale: Int, pipeline: ImagePipeline,
        onFrame: @escaping () -> Void
    ) {
        self.width = width
        self.height = height
        self.onFrame = onFrame
        pipeline.animation(
            PictureRequest(
                url: image.url, sha256: image.original?.sha256, fit: .within(width: width, height: height),
                scale: scale),
            // After the pictures of the cells on screen: a gallery playing its animations still fills in.
            priority: .prefetch, cancellation: cancellation,
            onMain: { [weak self] frames in
                guard let self, let frames, !cancellation.isCancelled else { return }
                start(frames)
            })
    }

    /// Stops decoding and lets the frames go.
    func stop() {
        cancellation.cancel()
        frames?.stop()
        frames = nil
        playback = nil
        surface = nil
        if let timer { MainContext.cancel(timer) }
        timer = nil
    }

    private func start(_ frames: AnimationFrames) {
        self.frames = frames
        playback = AnimationPlayback(timing: frames.header.timing)
        frames.onChange { [weak self] in self?.framesChanged() }
        frames.want(0)
    }

    /// A frame waited for is ready, or the frames turned out fewer.
    private func framesChanged() {
        guard let frames, var playback else { return }
        if frames.frameCount < playback.timing.frameCount {
            playback.limit(toFrames: frames.frameCount)
            self.playback = playback
        }
        if surface == nil {
            showFirstFrame()
        } else if isDue {
            showNextFrame()
        }
    }

    private func showFirstFrame() {
        guard let frames, let playback, let first = frames.frame(playback.frame) else { return }
        surface = first
        frames.want(playback.nextFrame ?? playback.frame)
        onFrame()
        scheduleNextFrame()
    }

    private func scheduleNextFrame() {
        guard let playback, playback.nextFrame != nil else { return }
        isDue = false
        timer = MainContext.after(milliseconds: UInt32(playback.currentDelay)) { [weak self] in
            guard let self else { return }
            timer = nil
            isDue = true
            showNextFrame()
        }
    }

    /// The next frame, when its time has come and it is ready.
    private func showNextFrame() {
        guard isDue, let frames, var playback, let next = playback.nextFrame, let surface = frames.frame(next) else {
            return
        }
        _ = playback.advance()
        self.playback = playback
        self.surface = surface
        frames.want(playback.nextFrame ?? next)
        onFrame()
        scheduleNextFrame()
    }
}
