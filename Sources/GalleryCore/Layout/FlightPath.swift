import Foundation

/// A rectangle that flies from one place to another while shrinking and fading: the image
/// dropped on the trash falling into it. Pure arithmetic; the view draws `frame(at:)`.
public struct FlightPath: Sendable {
    public let start: LayoutRect
    public let end: LayoutRect
    public let duration: Double
    /// The size it ends at, as a fraction of its start size.
    public let finalScale: Double

    /// - Parameters:
    ///   - start: where the image is when released.
    ///   - target: the centre of `target` is where it lands (the trash icon).
    public init(from start: LayoutRect, into target: LayoutRect, duration: Double = 0.35, finalScale: Double = 0.1) {
        self.start = start
        self.duration = duration
        self.finalScale = finalScale
        let width = start.width * finalScale
        let height = start.height * finalScale
        end = LayoutRect(x: target.midX - width / 2, y: target.midY - height / 2, width: width, height: height)
    }

    /// Ease-in-out (cubic): it lifts off gently and settles gently.
    public static func ease(_ t: Double) -> Double {
        let t = min(max(t, 0), 1)
        return t < 0.5 ? 4 * t * t * t : 1 - pow(-2 * t + 2, 3) / 2
    }

    public func progress(at elapsed: Double) -> Double { min(max(elapsed / duration, 0), 1) }

    public func frame(at elapsed: Double) -> LayoutRect {
        start.interpolated(to: end, t: Self.ease(progress(at: elapsed)))
    }

    /// Opacity: fully visible at first, fading towards the end.
    public func opacity(at elapsed: Double) -> Double {
        1 - 0.8 * Self.ease(progress(at: elapsed))
    }

    public func isFinished(at elapsed: Double) -> Bool { elapsed >= duration }
}
