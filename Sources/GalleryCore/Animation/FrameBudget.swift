/// How many decoded frames an animation holds at once: the frame showing and those decoded ahead of it, within
/// `ImageLimits.animationBudgetBytes` together with what its decoder holds, whatever its frame count. An animation
/// whose every frame fits holds them all once decoded, so that its next plays decode nothing.
public struct FrameBudget: Sendable, Equatable {
    /// Frames held ahead of the one showing at most, unless every frame fits: enough to ride out a slow decode, few
    /// enough to start at once.
    public static let mostFramesAhead = 4

    /// Frames held at once, the one showing included; 0 when not even two fit (then the animation shows its first
    /// frame only).
    public let framesHeld: Int
    /// Every frame is kept once decoded.
    public let holdsEveryFrame: Bool

    /// - Parameters:
    ///   - frameBytes: one decoded frame as shown (its surface).
    ///   - decoderBytes: what the decoder holds while it plays (its canvas, the file's bytes).
    ///   - frameCount: the animation's frames, when all of them may be kept if they fit.
    ///   - budgetBytes: the most an animation may hold.
    public init(
        frameBytes: Int, decoderBytes: Int, frameCount: Int? = nil, budgetBytes: Int = ImageLimits.animationBudgetBytes
    ) {
        let room = budgetBytes - max(decoderBytes, 0)
        let fitting = frameBytes > 0 && room > 0 ? room / frameBytes : 0
        if let frameCount, frameCount >= 2, fitting >= frameCount {
            framesHeld = frameCount
            holdsEveryFrame = true
        } else {
            framesHeld = fitting >= 2 ? min(fitting, Self.mostFramesAhead + 1) : 0
            holdsEveryFrame = false
        }
    }

    /// Frames decoded ahead of the one showing: all of them, around the end, when every frame is held.
    public var framesAhead: Int { holdsEveryFrame ? framesHeld : max(framesHeld - 1, 0) }

    /// Whether the animation can play at all within the budget.
    public var canPlay: Bool { framesHeld >= 2 }

    /// The bytes of a frame of `width`×`height` pixels as a surface.
    public static func frameBytes(width: Int, height: Int) -> Int {
        max(width, 0) * max(height, 0) * 4
    }
}
