/// A button press or release, copied out of the GdkEvent (which only lives during the callback).
/// `x` and `y` are in the coordinates of the widget the handler is connected to, also when the
/// click landed in a child's own window (an entry, a stack) and reached the widget by propagation.
public struct ButtonEvent: Sendable {
    public let x: Double
    public let y: Double
    public let button: UInt32
    public let modifiers: Modifiers
    public let isDoubleClick: Bool
    public let time: UInt32
}
