/// A cell of a gallery: an image, or a placeholder for one that is still downloading.
public struct GalleryCell: Hashable, Sendable {
    public enum Content: Hashable, Sendable {
        case image(GalleryImage)
        /// `progress` is the fraction downloaded, nil while the size is unknown.
        case placeholder(label: String, progress: Double?)
    }

    public var id: ImageID
    public var content: Content

    public init(id: ImageID, content: Content) {
        self.id = id
        self.content = content
    }

    public init(_ image: GalleryImage) { self.init(id: image.id, content: .image(image)) }

    public var image: GalleryImage? {
        if case .image(let image) = content { return image }
        return nil
    }

    public var isPlaceholder: Bool { image == nil }

    /// Read in place: a layout reads it for every cell, and copying each image out of its cell cost more.
    public var aspectRatio: Double {
        switch content {
        case .image(let image): image.displayAspectRatio
        case .placeholder: 1
        }
    }
}

/// The cells of one gallery in display order, and the arithmetic between positions among all
/// cells and positions among images only (what the history records, so placeholders coming and
/// going do not shift where an undo puts things).
struct CellList {
    var cells: [GalleryCell]

    init(images: [GalleryImage]) { cells = images.map(GalleryCell.init) }

    var images: [GalleryImage] { cells.compactMap(\.image) }

    func index(of id: ImageID) -> Int? { cells.firstIndex { $0.id == id } }

    /// Where a cell stands among all cells, and how many images come before it; one pass.
    func position(of id: ImageID) -> (cellIndex: Int, imageIndex: Int)? {
        var images = 0
        for (index, cell) in cells.enumerated() {
            if cell.id == id { return (index, images) }
            if !cell.isPlaceholder { images += 1 }
        }
        return nil
    }

    /// For cells at ascending `cellIndices`, how many images (not placeholders) come before each; one pass.
    func imageIndices(ofCells cellIndices: [Int]) -> [Int] {
        var result: [Int] = []
        result.reserveCapacity(cellIndices.count)
        var images = 0
        var next = 0
        for (index, cell) in cells.enumerated() where next < cellIndices.count {
            while next < cellIndices.count && cellIndices[next] == index {
                result.append(images)
                next += 1
            }
            if !cell.isPlaceholder { images += 1 }
        }
        // Past the end: every image comes before.
        while next < cellIndices.count {
            result.append(images)
            next += 1
        }
        return result
    }

    /// Where an image must go to be image number `imageIndex`: just before the image now at that
    /// position, or at the end.
    func cellIndex(forImageIndex imageIndex: Int) -> Int {
        var seen = 0
        for (index, cell) in cells.enumerated() where !cell.isPlaceholder {
            if seen >= imageIndex { return index }
            seen += 1
        }
        return cells.count
    }

    mutating func apply(_ edit: GalleryEdit) {
        switch edit {
        case .move(let ids, _, let destination):
            let moving = Set(ids)
            let byID = Dictionary(
                cells.filter { moving.contains($0.id) }.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            cells.removeAll { moving.contains($0.id) }
            cells.insert(contentsOf: ids.compactMap { byID[$0] }, at: cellIndex(forImageIndex: destination))
        case .restoreMove(let ids, let originalIndices):
            let moving = Set(ids)
            let byID = Dictionary(
                cells.filter { moving.contains($0.id) }.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            // Pair before dropping ids that are gone, so the rest keep their own indices.
            let moved = zip(ids, originalIndices).compactMap { id, index in byID[id].map { (index, $0) } }
            cells = Self.merge(moved, into: cells.filter { !moving.contains($0.id) })
        case .insert(let entries):
            // A set of the few arriving ids, not of every id of a large gallery.
            let arriving = Set(entries.map(\.image.id))
            let present = Set(cells.lazy.map(\.id).filter(arriving.contains))
            let missing = entries.filter { !present.contains($0.image.id) }.map { ($0.index, GalleryCell($0.image)) }
            cells = Self.merge(missing, into: cells)
        case .remove(let entries):
            let ids = Set(entries.map(\.image.id))
            cells.removeAll { ids.contains($0.id) }
        case .note(let id, _, let note):
            guard let index = cells.firstIndex(where: { $0.id == id }), var image = cells[index].image else { return }
            image.note = note
            cells[index].content = .image(image)
        case .tags(let changes):
            // One pass over the gallery, however many images change.
            let tags = Dictionary(changes.map { ($0.id, $0.to) }, uniquingKeysWith: { _, last in last })
            for index in cells.indices {
                guard let changed = tags[cells[index].id], var image = cells[index].image else { continue }
                image.tags = changed
                cells[index].content = .image(image)
            }
        case .replace(_, let images):
            let byID = Dictionary(images.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
            for index in cells.indices where !cells[index].isPlaceholder {
                if let image = byID[cells[index].id] { cells[index].content = .image(image) }
            }
        }
    }

    /// Puts each cell where it becomes image number `imageIndex` of the result, in one pass: the
    /// same as inserting them one by one in ascending order, without the quadratic cost.
    static func merge(_ items: [(imageIndex: Int, cell: GalleryCell)], into base: [GalleryCell]) -> [GalleryCell] {
        let pending = items.sorted { $0.imageIndex < $1.imageIndex }
        var result: [GalleryCell] = []
        result.reserveCapacity(base.count + pending.count)
        var next = 0
        var images = 0
        for cell in base {
            if !cell.isPlaceholder {
                while next < pending.count && pending[next].imageIndex <= images {
                    result.append(pending[next].cell)
                    images += 1
                    next += 1
                }
                images += 1
            }
            result.append(cell)
        }
        result.append(contentsOf: pending[next...].map(\.cell))
        return result
    }
}
