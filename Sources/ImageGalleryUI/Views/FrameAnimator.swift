import Foundation
import GLibKit
import GalleryCore
import GtkKit

/// Slides cells from their old frames to their new ones, driven by the frame clock.
@MainActor
final class FrameAnimator {
    static let duration = 0.22

    private var from: [ImageID: LayoutRect] = [:]
    private var startTime = 0
    private var progress = 1.0
    private var tick: UInt32?

    func start(from frames: [ImageID: LayoutRect], on widget: Widget) {
        from = frames
        startTime = MainContext.monotonicMicroseconds
        progress = 0
        guard tick == nil else { return }
        tick = widget.addTickCallback { [weak self, weak widget] now in
            guard let self else { return false }
            progress = min(Double(now - startTime) / 1_000_000 / Self.duration, 1)
            widget?.queueDraw()
            if progress >= 1 {
                from = [:]
                tick = nil
                return false
            }
            return true
        }
    }

    var isAnimating: Bool { progress < 1 }

    func stop(on widget: Widget) {
        if let tick { widget.removeTickCallback(tick) }
        tick = nil
        from = [:]
        progress = 1
    }

    func frame(for id: ImageID, target: LayoutRect) -> LayoutRect {
        guard progress < 1, let start = from[id] else { return target }
        // Ease out (cubic): quick start, gentle landing.
        let t = 1 - pow(1 - progress, 3)
        return start.interpolated(to: target, t: t)
    }
}
