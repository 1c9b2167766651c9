/// Pointer motion, copied out of the GdkEvent (which only lives during the callback).
public struct MotionEvent: Sendable {
    public let x: Double
    public let y: Double
    public let modifiers: Modifiers
    public let buttonHeld: Bool
}
