import Foundation
import GLibKit
import GalleryCore

/// An APNG's frames composed one after another on a canvas of the size they show: each frame is wrapped as a PNG of
/// its own and decoded already scaled down (`ImageDecoder`, within `ImageLimits`), so a 4,000×4,000 APNG costs the
/// shown size's pixels. Sendable only to be handed over: its owner's lock lets one thread at a time use it.
final class APNGAnimation: FrameSource, @unchecked Sendable {
    private let file: APNGFile
    private let canvas: FrameCanvas
    /// The canvas as it was before the current frame, when that frame disposes of itself by going back to it.
    private var beforeCurrent: FrameCanvas?
    private(set) var position = 0

    /// The animation at its first frame on a canvas of `width`×`height` pixels; nil when that frame cannot be decoded.
    init?(file: APNGFile, width: Int, height: Int) {
        guard let canvas = FrameCanvas(width: width, height: height) else { return nil }
        self.file = file
        self.canvas = canvas
        guard compose(0) else { return nil }
    }

    func restart() {
        canvas.clear()
        beforeCurrent = nil
        position = 0
        _ = compose(0)
    }

    func advance() -> Bool {
        guard position + 1 < file.frames.count else { return false }
        dispose(file.frames[position])
        guard compose(position + 1) else { return false }
        position += 1
        return true
    }

    func frame(width: Int, height: Int, scale: Int) -> CairoSurface? {
        canvas.snapshot(width: width, height: height, scale: scale)
    }

    /// A frame's rectangle on the canvas, its edges rounded to whole pixels so frames side by side meet.
    private func rectangle(of frame: APNGFile.Frame) -> (x: Int, y: Int, width: Int, height: Int) {
        let scaleX = Double(canvas.width) / Double(file.width)
        let scaleY = Double(canvas.height) / Double(file.height)
        let left = Int((Double(frame.x) * scaleX).rounded())
        let top = Int((Double(frame.y) * scaleY).rounded())
        let right = Int((Double(frame.x + frame.width) * scaleX).rounded())
        let bottom = Int((Double(frame.y + frame.height) * scaleY).rounded())
        return (left, top, max(right - left, 1), max(bottom - top, 1))
    }

    /// Draws frame `index` on the canvas; false when its data cannot be decoded.
    private func compose(_ index: Int) -> Bool {
        let frame = file.frames[index]
        let rect = rectangle(of: frame)
        guard
            case .success(let decoded) = ImageDecoder.decodePicture(
                file.png(ofFrame: index), fit: (rect.width, rect.height))
        else { return false }
        beforeCurrent = frame.dispose == .previous ? canvas.copy() : nil
        canvas.draw(
            decoded.bitmap, x: rect.x, y: rect.y, width: rect.width, height: rect.height,
            replacing: frame.blend == .source)
        return true
    }

    private func dispose(_ frame: APNGFile.Frame) {
        switch frame.dispose {
        case .none: break
        case .background:
            let rect = rectangle(of: frame)
            canvas.clear(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
        case .previous:
            if let beforeCurrent { canvas.restore(beforeCurrent) }
        }
        beforeCurrent = nil
    }
}
