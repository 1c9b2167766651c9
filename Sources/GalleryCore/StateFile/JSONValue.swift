/// Any JSON value as a tree: what this version reads of the few fields it parses whole (smart galleries, a
/// lineage) and writes; what it does not know stays text (`RawJSON`).
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    /// The number's text as written (`12345678901234567890`, `1e400`, `-0`): written back exactly,
    /// whatever a `Double` would make of it.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
}
