/// When a change was made, as every computer orders it: a Lamport counter (one more than the largest the computer had
/// seen), then the computer's id, so that two computers' changes to one value are ordered the same way everywhere.
public struct JournalStamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The largest counter read: JSON readers elsewhere hold whole numbers exactly up to 2^53.
    public static let maximumCounter: UInt64 = 1 << 53

    public let counter: UInt64
    public let computer: String

    public init(counter: UInt64, computer: String) {
        self.counter = counter
        self.computer = computer
    }

    public static func < (left: JournalStamp, right: JournalStamp) -> Bool {
        left.counter != right.counter ? left.counter < right.counter : left.computer < right.computer
    }

    /// Whether `id` can name a computer: it names that computer's log file, so only 1 to 64 lowercase letters,
    /// digits and hyphens (a random UUID's text).
    public static func isValidComputer(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count)
            && id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x2D }
    }

    public var description: String { "\(counter)@\(computer)" }
}
