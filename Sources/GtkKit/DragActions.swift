import CGtk

public struct DragActions: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let copy = DragActions(rawValue: GDK_ACTION_COPY.rawValue)
    public static let move = DragActions(rawValue: GDK_ACTION_MOVE.rawValue)

    var gdk: GdkDragAction { GdkDragAction(rawValue) }
}
