import CGtk
import CShim
import Foundation

/// What assistive technologies are told about one visible cell.
public struct AccessibleCell: Sendable {
    public var x, y, width, height: Int
    public var name: String
    public var description: String

    public init(x: Int, y: Int, width: Int, height: Int, name: String, description: String) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.name = name
        self.description = description
    }
}

/// The drawing area the gallery paints its cells into, exposing each visible cell over AT-SPI.
public final class GalleryCanvas: Widget {
    public typealias CellProvider = @MainActor () -> [AccessibleCell]
    private var providerBox: CallbackBox<CellProvider>?

    public init() {
        super.init(owning: cshim_gallery_canvas_new())
    }

    deinit { cshim_gallery_canvas_set_cells(widget, nil) }

    /// `provider` lists the cells on screen in reading order; it is asked whenever a tool looks.
    public func setAccessibleCells(_ provider: @escaping CellProvider) {
        let box = CallbackBox(provider)
        providerBox = box
        var cells = CShimCanvasCells(
            visible_cell_count: { owner in
                let box = CallbackBox<CellProvider>.from(userData: owner)
                return gint(onMain { box.handler().count })
            },
            visible_cell: { owner, index, rect, name, description in
                let box = CallbackBox<CellProvider>.from(userData: owner)
                let cells = onMain { box.handler() }
                guard index >= 0, Int(index) < cells.count, let rect else { return 0 }
                let cell = cells[Int(index)]
                rect.pointee = GdkRectangle(x: gint(cell.x), y: gint(cell.y), width: gint(cell.width), height: gint(cell.height))
                name?.pointee = g_strdup(cell.name)
                description?.pointee = g_strdup(cell.description)
                return 1
            },
            owner: Unmanaged.passUnretained(box).toOpaque())
        cshim_gallery_canvas_set_cells(widget, &cells)
    }

    /// Call when the set of visible cells or their names changed.
    public func accessibleCellsChanged() { cshim_gallery_canvas_cells_changed(widget) }
}
