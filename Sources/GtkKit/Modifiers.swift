import CGtk

public struct Modifiers: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let shift = Modifiers(rawValue: GDK_SHIFT_MASK.rawValue)
    public static let control = Modifiers(rawValue: GDK_CONTROL_MASK.rawValue)
    public static let alt = Modifiers(rawValue: GDK_MOD1_MASK.rawValue)

    init(state: guint) {
        rawValue = state & (GDK_SHIFT_MASK.rawValue | GDK_CONTROL_MASK.rawValue | GDK_MOD1_MASK.rawValue)
    }
}
