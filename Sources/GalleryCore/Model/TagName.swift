import Foundation

/// Tag names as the user gives them: parts separated by `/` nest (`colour/red` is under `colour`), each
/// part trimmed; two names that differ only in case are the same tag.
public enum TagName {
    /// The name as kept: each part trimmed with its runs of white space made one space, empty parts
    /// dropped; nil when nothing is left.
    public static func clean(_ name: String) -> String? {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false).compactMap { part -> String? in
            let words = part.split(whereSeparator: \.isWhitespace)
            return words.isEmpty ? nil : words.joined(separator: " ")
        }
        return parts.isEmpty ? nil : parts.joined(separator: "/")
    }

    /// What two names of the same tag have in common.
    public static func key(_ name: String) -> String { name.lowercased() }

    /// How tags are ordered in lists: without regard to case or accents (`Été` beside `ete`).
    public static func sortKey(_ name: String) -> String {
        name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    public static func same(_ a: String, _ b: String) -> Bool { a == b || key(a) == key(b) }

    /// The tags a name stands for with its parents, outermost first: `a/b/c` gives `a`, `a/b`, `a/b/c`.
    public static func withParents(_ name: String) -> [String] {
        var result: [String] = []
        var path = ""
        for part in name.split(separator: "/") {
            path = path.isEmpty ? String(part) : path + "/" + part
            result.append(path)
        }
        return result
    }

    /// `name` once `old` is called `new`: `old` itself, or a tag nested in it with its own nesting
    /// kept (`colour/red` → `hue/red`); nil when `name` is neither.
    public static func renamed(_ name: String, from old: String, to new: String) -> String? {
        let parts = name.split(separator: "/")
        let oldParts = old.split(separator: "/")
        guard parts.count >= oldParts.count,
            zip(parts, oldParts).allSatisfy({ same(String($0), String($1)) })
        else { return nil }
        return ([new] + parts.dropFirst(oldParts.count).map(String.init)).joined(separator: "/")
    }

    /// The names without a second spelling of any of them, in their first order.
    public static func unique(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.filter { seen.insert(key($0)).inserted }
    }
}

/// A tag in use and how many images carry it (or a tag nested in it).
public struct TagUse: Hashable, Sendable {
    public var name: String
    public var count: Int

    public init(name: String, count: Int) {
        self.name = name
        self.count = count
    }
}
