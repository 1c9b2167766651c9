import GalleryCore
import GtkKit

/// An icon, a title and a description centred over the canvas, GNOME status-page style (the empty gallery,
/// a search that finds nothing).
@MainActor
final class StatusPage {
    let root = Box(.vertical)

    init(iconName: String, title: String, description: String) {
        root.addStyleClass("empty-state")
        root.setAlign(horizontal: .center, vertical: .center)
        let titleLabel = Label(title)
        titleLabel.addStyleClass("title")
        let descriptionLabel = Label(description)
        descriptionLabel.addStyleClass("description")
        descriptionLabel.setWrap(true, maxWidthChars: 40)
        root.append(Image(iconName: iconName, pixelSize: 96))
        root.append(titleLabel)
        root.append(descriptionLabel)
    }
}
