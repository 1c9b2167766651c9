import Foundation
import GLibKit
import GalleryCore
import GtkKit

/// An image's properties (Alt+Return, the cell menu, the viewer's button): who it is and where it
/// came from, each address with Open, and the user's note about it. The note is saved with the
/// image as one undo step when the note loses the focus or the window closes, not per keystroke.
/// Its tags show as a line, with Edit Tags opening the tags dialog; its palette as swatches that search by colour.
/// It follows the library: an undo shows in it, and it closes when its image goes.
@MainActor
final class PropertiesWindow {
    let window: DialogWindow
    let imageID: ImageID
    private let library: GalleryLibrary
    private let pixelSize: () -> (width: Int, height: Int)?
    private let note = TextView()
    private let tags = Label()
    private let palette = PaletteSwatches()
    private var rows: [ImageProperties.Field: (box: Box, value: Label, open: Button)] = [:]
    private let keepCopyButton = Button(label: tr("_Keep a Copy in Library"))
    private var observation: Observation?
    /// Tells the user something (the parent window's toast).
    var say: (String) -> Void = { _ in }
    /// Opens the tags dialog of this image.
    var editTags: (ImageID) -> Void = { _ in }
    /// Keeps a copy of this image, a file on disk, in the library.
    var keepCopy: (ImageID) -> Void = { _ in }
    /// Searches the library for images of a colour of this one's palette.
    var findColour: (SearchColour) -> Void = { _ in }
    /// The window is gone, its note saved.
    var onClosed: () -> Void = {}

    init(
        imageID: ImageID, library: GalleryLibrary, parent: ApplicationWindow,
        pixelSize: @escaping () -> (width: Int, height: Int)?
    ) {
        self.imageID = imageID
        self.library = library
        self.pixelSize = pixelSize
        window = DialogWindow(title: tr("Image Properties"), parent: parent)
        window.setDefaultSize(width: 480, height: 700)

        let fields = Box(.vertical, spacing: 12)
        for field in ImageProperties.Field.allCases {
            let heading = Label(field.heading)
            heading.setXAlign(0)
            heading.addStyleClass("dim-label")
            let value = Label()
            value.wrapSelectableText()
            value.accessibleName = field.heading
            // Tab goes to what can be done (Open, the note); the values stay selectable with the pointer.
            value.canFocus = false
            let open = Button(label: tr("_Open"))
            open.accessibleName = tr("Open {field}", ["field": field.heading])
            open.setAlign(horizontal: .end, vertical: .center)
            open.onClicked { [weak self] in self?.open(field) }
            let texts = Box(.vertical, spacing: 2)
            texts.append(heading)
            texts.append(value)
            let row = Box(.horizontal, spacing: 12)
            row.append(texts, expand: true)
            row.append(open)
            fields.append(row)
            rows[field] = (row, value, open)
        }

        keepCopyButton.setAlign(horizontal: .end, vertical: .center)
        keepCopyButton.onClicked { [weak self] in
            guard let self else { return }
            self.keepCopy(imageID)
        }
        fields.append(keepCopyButton)

        let tagsHeading = Label(tr("Tags"))
        tagsHeading.setXAlign(0)
        tagsHeading.addStyleClass("dim-label")
        tags.wrapSelectableText()
        tags.canFocus = false
        tags.accessibleName = tr("Tags")
        let editTags = Button(label: tr("Edit _Tags…"))
        editTags.setAlign(horizontal: .end, vertical: .center)
        editTags.onClicked { [weak self] in
            guard let self else { return }
            self.editTags(imageID)
        }
        let tagTexts = Box(.vertical, spacing: 2)
        tagTexts.append(tagsHeading)
        tagTexts.append(tags)
        let tagsRow = Box(.horizontal, spacing: 12)
        tagsRow.append(tagTexts, expand: true)
        tagsRow.append(editTags)
        fields.append(tagsRow)
        palette.onChosen = { [weak self] colour in self?.findColour(colour) }
        fields.append(palette.root)

        let noteLabel = Label(mnemonic: tr("_Note"))
        noteLabel.setXAlign(0)
        noteLabel.addStyleClass("dim-label")
        noteLabel.setMnemonicWidget(note)
        note.accessibleName = tr("Note")
        let noteScroll = ScrolledWindow()
        noteScroll.addStyleClass("frame")
        noteScroll.setSizeRequest(width: -1, height: 120)
        noteScroll.add(note)
        let noteBox = Box(.vertical, spacing: 6)
        noteBox.append(noteLabel)
        noteBox.append(noteScroll, expand: true)

        let content = Box(.vertical, spacing: 18)
        content.addStyleClass("properties")
        content.append(fields)
        content.append(noteBox, expand: true)
        let scroll = ScrolledWindow()
        scroll.add(content)
        window.add(scroll)

        note.onFocusOut { [weak self] in self?.saveNote() }
        window.onDestroy { [weak self] in
            guard let self else { return }
            saveNote()
            observation = nil
            onClosed()
        }
        observation = library.observe { [weak self] change in
            guard case .cells = change, let self else { return }
            // Other images changed where they stand: this one is as it was.
            if library.cellsChangedInPlace != nil, library.imagesChanged?.contains(imageID) == false { return }
            refresh(updatingNote: !note.hasFocus)
        }
        refresh(updatingNote: true)
    }

    func present() {
        window.showAll()
        refresh(updatingNote: false)
        window.present()
        note.grabFocus()
    }

    private var image: GalleryImage? {
        guard let (galleryID, index) = library.location(of: imageID) else { return nil }
        return library.cells(of: galleryID)[index].image
    }

    /// Shows what is known now; the image gone (deleted, its gallery deleted), the window goes too.
    private func refresh(updatingNote: Bool) {
        guard let image else {
            window.close()
            return
        }
        let properties = ImageProperties(
            image, pixelSize: pixelSize(),
            // Translators: how a date is written in the properties (GLib's strftime-like format: %B the month's name).
            date: { DisplayFormat.date($0, format: tr("%-d %B %Y, %H:%M")) }, byteSize: DisplayFormat.byteSize)
        for (field, row) in rows {
            let shown = properties.rows.first { $0.field == field }
            row.box.isVisible = shown != nil
            row.value.text = shown?.value ?? ""
            row.value.accessibleDescription = shown?.value ?? ""
            row.open.isVisible = shown?.openable != nil
        }
        keepCopyButton.isVisible = ImageActions.isUnkeptFile(image)
        window.accessibleDescription = image.label
        // Translators: between an image's tags in its properties.
        tags.text = image.tags.joined(separator: tr(", "))
        tags.accessibleDescription = tags.text
        tags.isVisible = !image.tags.isEmpty
        palette.show(image.likeness?.palette)
        if updatingNote { note.text = image.note ?? "" }
    }

    private func saveNote() {
        guard image != nil else { return }
        library.setNote(note.text, of: imageID)
    }

    private func open(_ field: ImageProperties.Field) {
        guard let image,
            let address = ImageProperties(image, pixelSize: nil, date: { _ in nil }, byteSize: { _ in "" }).rows
                .first(where: { $0.field == field })?.openable
        else { return }
        Desktop.open(address) { [weak self] failure in
            guard let failure else { return }
            self?.say(
                tr(
                    "Could not open “{address}”: {reason}",
                    ["address": address, "reason": failure.message ?? tr("no application answered")]))
        }
    }
}
