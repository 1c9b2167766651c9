import Foundation
import GalleryCore

/// One filter beside a search's words, shown as a chip in the search bar; a query holds at most one of each kind.
enum SearchFilter: Hashable {
    case gallery(String)
    case tag(String)
    case domain(String)
    case addedAfter(Date)
    case addedBefore(Date)
    case orientation(SearchEntry.Orientation)
    case format(String)
    case hasNote
    case failedToLoad
    case animated
    case colour(SearchColour)

    /// Filters of the same kind replace each other.
    var kind: Int {
        switch self {
        case .gallery: 0
        case .tag: 1
        case .domain: 2
        case .addedAfter: 3
        case .addedBefore: 4
        case .orientation: 5
        case .format: 6
        case .hasNote: 7
        case .failedToLoad: 8
        case .animated: 9
        case .colour: 10
        }
    }

    func apply(to query: inout SearchQuery) {
        switch self {
        case .gallery(let id): query.galleryID = id
        case .tag(let name): query.tag = name
        case .domain(let host): query.domain = host
        case .addedAfter(let date): query.addedAfter = date
        case .addedBefore(let date): query.addedBefore = date
        case .orientation(let orientation): query.orientation = orientation
        case .format(let format): query.format = format
        case .hasNote: query.hasNote = true
        case .failedToLoad: query.failedToLoad = true
        case .animated: query.isAnimated = true
        case .colour(let colour): query.colour = colour
        }
    }

    /// What the chip says.
    @MainActor func label(in library: GalleryLibrary) -> String {
        switch self {
        case .gallery(let id): tr("Gallery: {gallery}", ["gallery": library.gallery(id)?.name ?? ""])
        case .tag(let name): tr("Tag: {tag}", ["tag": name])
        case .domain(let host): tr("Site: {domain}", ["domain": host])
        case .addedAfter(let date): tr("Added after {date}", ["date": Self.day(date)])
        case .addedBefore(let date): tr("Added before {date}", ["date": Self.day(date)])
        case .orientation(.landscape): tr("Landscape")
        case .orientation(.portrait): tr("Portrait")
        case .orientation(.square): tr("Square")
        case .format(let format): tr("Format: {format}", ["format": format.uppercased()])
        case .hasNote: tr("Has a Note")
        case .failedToLoad: tr("Failed to Load")
        // Translators: a search filter: only images that move (animated GIF, WebP, PNG).
        case .animated: tr("Animated")
        case .colour(let colour): tr("Colour: {colour}", ["colour": Self.name(of: colour)])
        }
    }

    /// A colour's name as the user reads it: a named colour's, or a picked one's hexadecimal code.
    static func name(of colour: SearchColour) -> String {
        switch colour {
        case .named(.red): tr("Red")
        case .named(.orange): tr("Orange")
        case .named(.yellow): tr("Yellow")
        case .named(.green): tr("Green")
        case .named(.blue): tr("Blue")
        case .named(.purple): tr("Purple")
        case .named(.pink): tr("Pink")
        case .named(.brown): tr("Brown")
        case .named(.black): tr("Black")
        case .named(.grey): tr("Grey")
        case .named(.white): tr("White")
        case .picked: colour.text.uppercased()
        }
    }

    private static func day(_ date: Date) -> String {
        date.formatted(Date.FormatStyle(date: .abbreviated, time: .omitted).locale(Locale.current))
    }

    /// The filter as a menu item's target (`tag:colour/red`), and back.
    var token: String {
        switch self {
        case .gallery(let id): "gallery:" + id
        case .tag(let name): "tag:" + name
        case .domain(let host): "domain:" + host
        case .addedAfter(let date): "after:" + String(Int(date.timeIntervalSince1970))
        case .addedBefore(let date): "before:" + String(Int(date.timeIntervalSince1970))
        case .orientation(let orientation): "orientation:" + orientation.rawValue
        case .format(let format): "format:" + format
        case .hasNote: "note:"
        case .failedToLoad: "failed:"
        case .animated: "animated:"
        case .colour(let colour): "colour:" + colour.text
        }
    }

    init?(token: String) {
        guard let colon = token.firstIndex(of: ":") else { return nil }
        let value = String(token[token.index(after: colon)...])
        switch token[..<colon] {
        case "gallery": self = .gallery(value)
        case "tag": self = .tag(value)
        case "domain": self = .domain(value)
        case "after":
            guard let seconds = Int(value) else { return nil }
            self = .addedAfter(Date(timeIntervalSince1970: Double(seconds)))
        case "before":
            guard let seconds = Int(value) else { return nil }
            self = .addedBefore(Date(timeIntervalSince1970: Double(seconds)))
        case "orientation":
            guard let orientation = SearchEntry.Orientation(rawValue: value) else { return nil }
            self = .orientation(orientation)
        case "format": self = .format(value)
        case "note": self = .hasNote
        case "failed": self = .failedToLoad
        case "animated": self = .animated
        case "colour":
            guard let colour = SearchColour(text: value) else { return nil }
            self = .colour(colour)
        default: return nil
        }
    }
}
