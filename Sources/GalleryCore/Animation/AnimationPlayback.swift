/// Where an animation is: the frame that shows, which comes next, and whether it plays. It moves one frame at a time,
/// so a frame decoded late shows late rather than being skipped.
public struct AnimationPlayback: Sendable, Equatable {
    public private(set) var timing: FrameTiming
    /// The frame that shows.
    public private(set) var frame = 0
    /// Plays finished before the current one.
    public private(set) var playsDone = 0
    /// Playing, not paused by the user; it may have finished (`isFinished`).
    public private(set) var isPlaying = true

    public init(timing: FrameTiming) {
        self.timing = timing
    }

    /// Every play is over: the last frame stays.
    public var isFinished: Bool {
        guard let plays = timing.plays else { return false }
        return playsDone >= plays - 1 && frame == timing.frameCount - 1
    }

    /// The frame after the current one as the animation plays (the first again after the last while plays remain),
    /// or nil once it has finished.
    public var nextFrame: Int? {
        guard timing.frameCount > 1, !isFinished else { return nil }
        return (frame + 1) % timing.frameCount
    }

    /// How long the current frame shows, in milliseconds.
    public var currentDelay: Int { timing.delays.isEmpty ? 0 : timing.delays[frame] }

    /// The next frame shows, as its time came; false when there is none.
    public mutating func advance() -> Bool {
        guard let next = nextFrame else { return false }
        if next == 0 { playsDone += 1 }
        frame = next
        return true
    }

    /// Only the first `count` frames play from now on: the ones after could not be decoded.
    public mutating func limit(toFrames count: Int) {
        guard count < timing.frameCount else { return }
        timing = timing.prefix(count)
        frame = min(frame, timing.frameCount - 1)
    }

    public mutating func pause() {
        isPlaying = false
    }

    /// Plays from the current frame; from the start when it had finished.
    public mutating func play() {
        if isFinished {
            frame = 0
            playsDone = 0
        }
        isPlaying = true
    }

    /// One frame back or forth (`offset` -1 or 1), around the ends, while paused; the frame shown then, or nil when
    /// playing or there is only one frame.
    public mutating func step(by offset: Int) -> Int? {
        guard !isPlaying, timing.frameCount > 1 else { return nil }
        let count = timing.frameCount
        frame = ((frame + offset) % count + count) % count
        return frame
    }
}
