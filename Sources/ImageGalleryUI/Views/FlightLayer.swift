import GLibKit
import GalleryCore
import GtkKit

/// A transparent layer over the window's content that paints images flying into the trash. It is
/// drawn by the window itself, so it animates without a compositor. A box, not a drawing area:
/// it must have no input window of its own, so clicks pass through; and it is hidden while idle,
/// because GTK 3 looks for drop sites from the topmost widget under the pointer upwards.
@MainActor
final class FlightLayer {
    let area = Box(.vertical)

    private struct Flight {
        let surface: CairoSurface
        let path: FlightPath
        let startTime: Int
    }

    private var flights: [Flight] = []
    private var tick: UInt32?

    init() {
        area.setExpand(horizontal: true, vertical: true)
        area.onDraw { [weak self] context in self?.draw(context) }
        area.isVisible = false
    }

    /// Starts one image's flight; several run at once.
    func launch(_ surface: CairoSurface, path: FlightPath, delay: Double = 0) {
        flights.append(
            Flight(surface: surface, path: path, startTime: MainContext.monotonicMicroseconds + Int(delay * 1_000_000)))
        area.isVisible = true
        area.queueDraw()
        guard tick == nil else { return }
        tick = area.addTickCallback { [weak self] now in self?.step(now) ?? false }
    }

    var isAnimating: Bool { !flights.isEmpty }

    private func step(_ now: Int) -> Bool {
        flights.removeAll { $0.path.isFinished(at: Double(now - $0.startTime) / 1_000_000) }
        area.queueDraw()
        if flights.isEmpty {
            tick = nil
            area.isVisible = false
        }
        return !flights.isEmpty
    }

    private func draw(_ context: CairoContext) {
        let now = MainContext.monotonicMicroseconds
        for flight in flights {
            let elapsed = max(Double(now - flight.startTime) / 1_000_000, 0)
            let frame = flight.path.frame(at: elapsed)
            context.save()
            context.roundedRectangle(
                x: frame.x, y: frame.y, width: frame.width, height: frame.height,
                radius: 6 * frame.width / max(flight.path.start.width, 1))
            context.clip()
            context.draw(
                flight.surface, x: frame.x, y: frame.y, width: frame.width, height: frame.height,
                alpha: flight.path.opacity(at: elapsed), resampling: .fast)
            context.restore()
        }
    }
}
