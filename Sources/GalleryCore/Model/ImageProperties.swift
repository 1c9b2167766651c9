import Foundation

/// What the properties pane shows of an image, in order: only what is known, each value in words
/// and, for an address, what opening it opens. Dates and sizes are written by the caller's
/// formatters, which know the user's locale.
public struct ImageProperties: Equatable, Sendable {
    public enum Field: CaseIterable, Sendable {
        case address, link, page, pageTitle, altText, title, browserDescription, arrival, added, pixelSize, byteSize,
            format, animation

        /// The field's name, as the pane heads it and assistive technologies read it.
        public var heading: String {
            switch self {
            case .address: tr("Address")
            case .link: tr("Link")
            case .page: tr("Page")
            case .pageTitle: tr("Page title")
            case .altText: tr("Alternative text")
            case .title: tr("Title")
            // Translators: what the web browser called the image when it was dragged.
            case .browserDescription: tr("Browser’s description")
            case .arrival: tr("Added by")
            case .added: tr("Date added")
            case .pixelSize: tr("Dimensions")
            case .byteSize: tr("File size")
            case .format: tr("Format")
            case .animation: tr("Animation")
            }
        }
    }

    public struct Row: Equatable, Sendable {
        public var field: Field
        public var value: String
        /// The address Open hands to the desktop; nil when there is nothing to open.
        public var openable: String?
    }

    public var rows: [Row]

    public init(
        _ image: GalleryImage, pixelSize: (width: Int, height: Int)?, date: (Date) -> String?,
        byteSize: (Int) -> String
    ) {
        var rows: [Row] = []
        func add(_ field: Field, _ value: String?, openable: String? = nil) {
            guard let value, !value.isEmpty, !rows.contains(where: { $0.value == value && $0.field != .address })
            else { return }
            rows.append(Row(field: field, value: value, openable: openable))
        }
        let origin = image.origin
        if image.url.hasPrefix("data:") {
            add(.address, image.label)
        } else {
            add(.address, image.url, openable: Self.openable(image.url))
        }
        add(.link, origin?.link, openable: origin?.link.flatMap(Self.openable))
        add(.page, origin?.page, openable: origin?.page.flatMap(Self.openable))
        add(.pageTitle, origin?.pageTitle)
        add(.altText, origin?.altText)
        add(.title, origin?.title)
        // Said already when it repeats the alt text or the title (both browsers send the alt text).
        add(.browserDescription, origin?.browserDescription)
        add(.arrival, origin?.arrival.map(Self.describe))
        add(.added, origin?.addedDate.flatMap(date))
        let size = image.original.map { ($0.pixelWidth, $0.pixelHeight) } ?? pixelSize
        if let (width, height) = size, width > 0, height > 0 {
            add(.pixelSize, tr("{width} × {height} pixels", ["width": "\(width)", "height": "\(height)"]))
        }
        if let bytes = image.original?.byteCount, bytes > 0 { add(.byteSize, byteSize(bytes)) }
        add(.format, image.original?.format.map(Self.formatName))
        if let animation = image.animation, animation.isAnimated { add(.animation, Self.describe(animation)) }
        self.rows = rows
    }

    private static func describe(_ arrival: ImageOrigin.Arrival) -> String {
        switch arrival {
        case .drop: tr("Dropped from another application")
        case .paste: tr("Pasted")
        case .file: tr("Added as a file")
        case .folder: tr("Added with its folder")
        }
    }

    /// "8 frames, 1.6 s": how many frames, and how long one play of them lasts.
    static func describe(_ animation: AnimationSummary) -> String {
        let seconds = Localization.tenths(Double(animation.duration) / 1000)
        return trPlural(
            "{count} frame, {seconds} s", "{count} frames, {seconds} s", Int(animation.frameCount),
            ["count": Localization.number(Int(animation.frameCount)), "seconds": seconds])
    }

    /// Web and file addresses open in the desktop's application for them; nothing else does.
    private static func openable(_ address: String) -> String? {
        guard let scheme = URL(string: address)?.scheme?.lowercased(), ["http", "https", "file"].contains(scheme)
        else { return nil }
        return address
    }

    private static func formatName(_ format: String) -> String {
        ImageFormat.all.first { $0.name.lowercased() == format.lowercased() || $0.fileExtensions.contains(format) }?
            .name ?? format.uppercased()
    }
}
