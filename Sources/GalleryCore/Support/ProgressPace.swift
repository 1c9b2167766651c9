/// When a background task's progress is worth putting in front of the user: not before it has run a while (a short
/// task says nothing), then a few times a second at most, however often it advances. Each report relabels and lays out
/// the window's toast on the GTK thread, and a pass over a large library advances hundreds of times a second.
public struct ProgressPace: Sendable {
    /// Work shorter than this is not reported.
    public static let delayMicroseconds: Int = 1_000_000
    /// Reports at most this often.
    public static let intervalMicroseconds: Int = 250_000

    private let startedAt: Int
    private var shownAt: Int?

    /// Whether a report was shown: the task's end is then reported too.
    public var hasShown: Bool { shownAt != nil }

    public init(startedAt: Int) { self.startedAt = startedAt }

    /// Whether the progress at `now` (microseconds, on the clock of `startedAt`) is shown; if so, it counts as shown.
    public mutating func shows(at now: Int) -> Bool {
        guard now - startedAt > Self.delayMicroseconds else { return false }
        if let shownAt, now - shownAt < Self.intervalMicroseconds { return false }
        shownAt = now
        return true
    }
}
