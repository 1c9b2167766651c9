import CGtkShim
import GLibKit

extension CairoSurface {
    /// A copy the display reads without uploading it at every paint (shared memory on X11): for
    /// pictures painted again and again. Made where it is kept, on the GUI thread, since making
    /// one talks to the display; workers make plain surfaces.
    @MainActor
    public func forDisplay() -> CairoSurface {
        CairoSurface(
            taking: cshim_display_image_copy(surface)!, logicalWidth: logicalWidth,
            logicalHeight: logicalHeight, cornerRadius: cornerRadius)
    }
}
