import GalleryCore
import GtkKit

/// The search bar's chips: the filters in force, each with a button that removes it, and under the entry the
/// tags and galleries whose names begin like the words typed, each a button that makes it a filter.
@MainActor
final class SearchChips {
    let chips = Box(.horizontal, spacing: 4)
    let offers = Box(.horizontal, spacing: 4)
    private var chipWidgets: [Widget] = []
    private var offerWidgets: [Widget] = []

    var onRemove: (SearchFilter) -> Void = { _ in }
    var onChoose: (SearchFilter) -> Void = { _ in }

    init() {
        offers.addStyleClass("search-offers")
        chips.isVisible = false
        offers.isVisible = false
    }

    func show(_ filters: [SearchFilter], library: GalleryLibrary) {
        for widget in chipWidgets { chips.remove(widget) }
        chipWidgets = filters.map { filter in
            let label = filter.label(in: library)
            let chip = Box(.horizontal, spacing: 2)
            chip.addStyleClass("search-chip")
            let text = Label(label)
            text.ellipsize()
            chip.append(text)
            let remove = Button(iconName: "window-close-symbolic", tooltip: tr("Remove “{filter}”", ["filter": label]))
            remove.addStyleClass("flat")
            remove.onClicked { [weak self] in self?.onRemove(filter) }
            chip.append(remove)
            chips.append(chip)
            return chip
        }
        chips.isVisible = !filters.isEmpty
        chips.showAll()
    }

    func offer(_ filters: [SearchFilter], library: GalleryLibrary) {
        for widget in offerWidgets { offers.remove(widget) }
        offerWidgets = filters.map { filter in
            let button = Button(text: filter.label(in: library))
            button.addStyleClass("search-offer")
            button.onClicked { [weak self] in self?.onChoose(filter) }
            offers.append(button)
            return button
        }
        offers.isVisible = !filters.isEmpty
        offers.showAll()
    }
}
