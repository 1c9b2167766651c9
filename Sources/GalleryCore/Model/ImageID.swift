import Foundation

/// Stable identity of an image (or of a placeholder waiting to become one).
public struct ImageID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }

    public static func make() -> ImageID { ImageID(RandomID.make()) }

    public var description: String { rawValue }
}
