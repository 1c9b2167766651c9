public struct ScrollEvent: Sendable {
    public enum Direction: Sendable {
        case up, down
        case smooth(dy: Double)
        case other
    }
    public let direction: Direction
    public let modifiers: Modifiers
    /// Where the pointer is, in the widget's coordinates (zooming keeps this point still).
    public let x: Double
    public let y: Double
}
