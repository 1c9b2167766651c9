import GalleryCore
import GtkKit

/// A scrolled column of tag rows, with a line for when there is no tag and one saying how many were
/// left out: rows are widgets, and past a few hundred building them would hold up the window.
@MainActor
final class TagListPane {
    /// The rows' scrolled column, to pack with the expansion it needs.
    let scroll = ScrolledWindow()
    /// The line saying how many tags have no row, to pack under the scroll.
    let more = Label()
    private let list = Box(.vertical, spacing: 6)
    private let empty: Label
    private var rows: [Widget] = []

    init(emptyText: String) {
        empty = Label(emptyText)
        empty.addStyleClass("dim-label")
        more.addStyleClass("dim-label")
        more.setXAlign(0)
        list.append(empty)
        scroll.add(list)
        scroll.setExpand(horizontal: true, vertical: true)
    }

    /// Replaces the rows with one for each of the first tags; `isEmpty` shows the no-tag line, and
    /// `moreText` words the count of tags left without a row.
    func show(
        _ tags: [TagUse], isEmpty: Bool, moreText: (Int) -> String, row: (TagUse) -> Widget
    ) {
        for row in rows { list.remove(row) }
        rows = tags.prefix(Self.shownLimit).map(row)
        for row in rows { list.append(row) }
        list.showAll()
        empty.isVisible = isEmpty
        let hidden = tags.count - min(tags.count, Self.shownLimit)
        more.text = moreText(hidden)
        more.isVisible = hidden > 0
    }

    private static let shownLimit = 200
}
