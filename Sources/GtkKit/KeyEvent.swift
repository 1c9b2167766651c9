public struct KeyEvent: Sendable {
    public let keyName: String
    public let modifiers: Modifiers
}
