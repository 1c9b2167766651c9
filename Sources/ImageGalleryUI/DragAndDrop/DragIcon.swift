import GLibKit
import GalleryCore
import GtkKit

/// The image under the pointer during a drag, and where in it the pointer and the cell's image are.
struct DragIcon {
    let surface: CairoSurface
    let hotX: Double
    let hotY: Double
    let imageRect: LayoutRect

    /// Where the cell's image is on screen when the pointer is at (x, y).
    func imageFrame(pointerX x: Double, pointerY y: Double) -> LayoutRect {
        LayoutRect(
            x: x - hotX + imageRect.x, y: y - hotY + imageRect.y, width: imageRect.width, height: imageRect.height)
    }
}
