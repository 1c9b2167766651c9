/// What the library records of whether an image moves: its frame count and how long one play of its frames lasts,
/// read from its header (`AnimationHeader`) when it arrives, or a still. Small, as every image of a library has one.
public struct AnimationSummary: Hashable, Sendable {
    /// The frames it plays; 1 for a still.
    public let frameCount: Int32
    /// One play of every frame, in milliseconds, as shown (very short delays lengthened).
    public let duration: Int32

    /// An image that does not move (a still, or a file no header reader could read as an animation).
    public static let still = AnimationSummary(frameCount: 1, duration: 0)

    public init(frameCount: Int, duration: Int) {
        self.frameCount = Int32(clamping: max(frameCount, 1))
        self.duration = Int32(clamping: max(duration, 0))
    }

    /// The animation `header` describes, or a still when there is none.
    public init(_ header: AnimationHeader?) {
        guard let header else {
            self = .still
            return
        }
        self.init(frameCount: header.timing.frameCount, duration: header.timing.duration)
    }

    public var isAnimated: Bool { frameCount > 1 }
}
