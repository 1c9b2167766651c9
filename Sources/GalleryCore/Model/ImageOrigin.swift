import Foundation

/// Where an image came from and how, as the drag, the paste or the file chooser told it when it was
/// added. Every field is optional: browsers hand over different things, and older files have none.
public struct ImageOrigin: Hashable, Sendable {
    /// How an image came into the library.
    public enum Arrival: String, Sendable, CaseIterable {
        /// Dragged from a web browser or another application.
        case drop
        case paste
        /// A file chosen in Add Images…, or dragged from a file manager.
        case file
        /// One of the images of a folder added with Add Folder… or dragged from a file manager.
        case folder
    }

    public var arrival: Arrival?
    /// When it was added, ISO 8601 in UTC (`2026-11-26T22:40:00Z`): kept as written, read only to be shown.
    public var added: String?
    /// The address of the link around the image (`<a href>`), when the drag or the page's HTML held one.
    public var link: String?
    /// The address of the page the image was on, when the drag said.
    public var page: String?
    /// The `<title>` of that page, when the app read the page or the browser sent it.
    public var pageTitle: String?
    /// The image's alternative text (`alt`).
    public var altText: String?
    /// The image's or its link's `title`.
    public var title: String?
    /// What the browser called it (Firefox's `text/x-moz-url` title, when it is not the address again).
    public var browserDescription: String?
    /// Fields this version does not know: written back as read.
    public var unknownFields: [String: RawJSON] = [:]

    public init(
        arrival: Arrival? = nil, added: String? = nil, link: String? = nil, page: String? = nil,
        altText: String? = nil, title: String? = nil, browserDescription: String? = nil, pageTitle: String? = nil
    ) {
        self.arrival = arrival
        self.added = added
        self.link = link
        self.page = page
        self.altText = altText
        self.title = title
        self.browserDescription = browserDescription
        self.pageTitle = pageTitle
    }
}

extension ImageOrigin {
    /// `date` as `added` records it: ISO 8601 in UTC, to the second.
    public static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: .gmt))
    }

    /// The moment `added` names; nil when it is missing or not ISO 8601 (a hand-edited file).
    public var addedDate: Date? {
        guard let added else { return nil }
        return try? Date.ISO8601FormatStyle(timeZone: .gmt).parse(added)
    }
}
