public struct KeyEvent: Sendable {
    public let keyName: String
    public let modifiers: Modifiers
    /// The character the key types, if it types one (`a`, `é`, `ж`, a space); nil for Left, F2, Escape…
    public let character: Character?
}
