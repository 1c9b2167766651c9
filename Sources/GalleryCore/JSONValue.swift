/// Any JSON value, kept as read: what the state file holds that this version does not understand
/// goes back into the file unchanged.
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
