/// What assistive technologies are told about one visible cell.
public struct AccessibleCell: Sendable, Equatable {
    public var x, y, width, height: Int
    public var name: String
    public var description: String
    /// Identifies the cell for good (its image's id).
    public var key: String

    public init(x: Int, y: Int, width: Int, height: Int, name: String, description: String, key: String) {
        self.key = key
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.name = name
        self.description = description
    }
}
