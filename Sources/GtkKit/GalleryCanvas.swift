import CGtk
import CGtkShim
import Foundation
import GLibKit

/// The drawing area the gallery paints its cells into, exposing each visible cell over AT-SPI.
public final class GalleryCanvas: Widget {
    public typealias CellProvider = @MainActor () -> [AccessibleCell]
    public typealias FrameProvider = @MainActor (String) -> (x: Int, y: Int, width: Int, height: Int)?

    @MainActor private final class Providers {
        let cells: CellProvider
        let frame: FrameProvider
        /// The cells as last told (`accessibleCellsChanged`): a tool reads them one by one, and
        /// listing them all for each would cost the square of their number.
        var snapshot: [AccessibleCell]?
        init(cells: @escaping CellProvider, frame: @escaping FrameProvider) {
            self.cells = cells
            self.frame = frame
        }
        func current() -> [AccessibleCell] {
            if let snapshot { return snapshot }
            let cells = cells()
            snapshot = cells
            return cells
        }
    }

    private var providers: Providers?

    public init() {
        super.init(owning: cshim_gallery_canvas_new())
    }

    deinit { cshim_gallery_canvas_set_cells(widget, nil) }

    /// `cells` lists the cells on screen in reading order, asked when a tool looks before any
    /// `accessibleCellsChanged`; `frame` finds a cell's current rectangle by its key, asked whenever
    /// a tool looks. The providers live as long as the canvas
    /// wrapper, which clears them from the widget in `deinit`.
    @MainActor public func setAccessibleCells(_ cells: @escaping CellProvider, frame: @escaping FrameProvider) {
        let providers = Providers(cells: cells, frame: frame)
        self.providers = providers
        var table = CShimCanvasCells(
            visible_cell_count: { owner in
                let providers = Unmanaged<Providers>.fromOpaque(owner!).takeUnretainedValue()
                return gint(onMain { providers.current().count })
            },
            visible_cell: { owner, index, rect, name, description, key in
                let providers = Unmanaged<Providers>.fromOpaque(owner!).takeUnretainedValue()
                let cells = onMain { providers.current() }
                guard index >= 0, Int(index) < cells.count, let rect else { return 0 }
                let cell = cells[Int(index)]
                rect.pointee = GdkRectangle(
                    x: gint(cell.x), y: gint(cell.y), width: gint(cell.width), height: gint(cell.height))
                name?.pointee = g_strdup(cell.name)
                description?.pointee = g_strdup(cell.description)
                key?.pointee = g_strdup(cell.key)
                return 1
            },
            cell_rect: { owner, key, rect in
                let providers = Unmanaged<Providers>.fromOpaque(owner!).takeUnretainedValue()
                guard let key, let rect else { return 0 }
                let name = String(cString: key)
                guard let frame = onMain({ providers.frame(name) }) else { return 0 }
                rect.pointee = GdkRectangle(
                    x: gint(frame.x), y: gint(frame.y), width: gint(frame.width), height: gint(frame.height))
                return 1
            },
            owner: Unmanaged.passUnretained(providers).toOpaque())
        cshim_gallery_canvas_set_cells(widget, &table)
    }

    /// Stops answering assistive technologies about cells (the window is closing): nothing may ask
    /// the owner once its widgets are gone.
    public func clearAccessibleCells() {
        cshim_gallery_canvas_set_cells(widget, nil)
        providers = nil
    }

    /// The height of the whole content: the canvas stays the size of its view and draws the part
    /// the scroll offset points at (cairo can't address content past 8,388,607 px).
    public func setContentHeight(_ height: Double) { cshim_gallery_canvas_set_content_height(widget, height) }

    /// Tells the cells on screen now, in reading order; tools are notified when they differ from
    /// the cells told before.
    @MainActor public func accessibleCellsChanged(_ cells: [AccessibleCell]) {
        guard let providers, providers.snapshot != cells else { return }
        providers.snapshot = cells
        cshim_gallery_canvas_cells_changed(widget)
    }
}
