import Foundation

/// A search kept as a sidebar row: its images are those its query finds now, counted as the library changes.
public struct SmartGallery: Hashable, Sendable {
    public var id: String
    public var name: String
    public var query: SearchQuery

    public init(id: String = RandomID.make(), name: String, query: SearchQuery) {
        self.id = id
        self.name = name
        self.query = query
    }

    /// The images of `corpus` it holds, in sidebar and gallery order. "Failed to load" is the app's to know:
    /// `failed` names those images.
    public func members(in corpus: SearchCorpus, failed: Set<ImageID> = []) -> [ImageID] {
        corpus.search(query, failed: failed)?.ids ?? []
    }
}

extension SmartGallery {
    /// The state file's object: `id`, `name`, and `query` with the words and each filter in force.
    var json: JSONValue {
        var query: [String: JSONValue] = [:]
        if !self.query.text.isEmpty { query["text"] = .string(self.query.text) }
        if let galleryID = self.query.galleryID { query["gallery"] = .string(galleryID) }
        if let tag = self.query.tag { query["tag"] = .string(tag) }
        if let domain = self.query.domain { query["domain"] = .string(domain) }
        if let after = self.query.addedAfter { query["addedAfter"] = .string(ImageOrigin.timestamp(after)) }
        if let before = self.query.addedBefore { query["addedBefore"] = .string(ImageOrigin.timestamp(before)) }
        if let orientation = self.query.orientation { query["orientation"] = .string(orientation.rawValue) }
        if let format = self.query.format { query["format"] = .string(format) }
        if self.query.hasNote { query["hasNote"] = .bool(true) }
        if self.query.isAnimated { query["animated"] = .bool(true) }
        if self.query.failedToLoad { query["failedToLoad"] = .bool(true) }
        if let colour = self.query.colour { query["colour"] = .string(colour.text) }
        return .object(["id": .string(id), "name": .string(name), "query": .object(query)])
    }

    /// Nil for an object without an id, a name or a query, or with a colour this version does not know: the field is
    /// then kept as read.
    init?(json: JSONValue) {
        guard case .object(let fields) = json, case .string(let id)? = fields["id"],
            case .string(let name)? = fields["name"], case .object(let query)? = fields["query"]
        else { return nil }
        func text(_ key: String) -> String? {
            if case .string(let value)? = query[key] { value } else { nil }
        }
        func flag(_ key: String) -> Bool {
            if case .bool(let value)? = query[key] { value } else { false }
        }
        let date: (String) -> Date? = { key in
            text(key).flatMap { try? Date($0, strategy: Date.ISO8601FormatStyle(timeZone: .gmt)) }
        }
        var parsed = SearchQuery(
            text: text("text") ?? "", galleryID: text("gallery"), tag: text("tag"),
            domain: text("domain"))
        parsed.addedAfter = date("addedAfter")
        parsed.addedBefore = date("addedBefore")
        parsed.orientation = text("orientation").flatMap(SearchEntry.Orientation.init(rawValue:))
        parsed.format = text("format")
        parsed.hasNote = flag("hasNote")
        parsed.isAnimated = flag("animated")
        parsed.failedToLoad = flag("failedToLoad")
        if let colour = text("colour") {
            guard let known = SearchColour(text: colour) else { return nil }
            parsed.colour = known
        }
        self.init(id: id, name: name, query: parsed)
    }
}
