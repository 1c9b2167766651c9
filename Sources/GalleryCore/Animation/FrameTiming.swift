/// When each frame of an animation shows: the delays its file gives, very short ones lengthened as browsers do, and
/// how many times it plays.
public struct FrameTiming: Sendable, Equatable {
    /// Delays up to this many milliseconds are lengthened: files written for old browsers rely on it.
    public static let longestShortDelay = 10
    /// What such a delay becomes, in milliseconds, as in Firefox and Chrome.
    public static let shortDelayShownAs = 100

    /// Each frame's delay in milliseconds, as shown.
    public let delays: [Int]
    /// How many times the frames play in all; nil: forever.
    public let plays: Int?

    /// - Parameters:
    ///   - fileDelays: each frame's delay in milliseconds, as the file gives it.
    ///   - plays: how many times the animation plays in all; nil: forever.
    public init(fileDelays: [Int], plays: Int?) {
        delays = fileDelays.map(Self.shownDelay)
        self.plays = plays.map { max($0, 1) }
    }

    private init(delays: [Int], plays: Int?) {
        self.delays = delays
        self.plays = plays
    }

    /// The first `count` frames only (the others could not be decoded), played as often.
    public func prefix(_ count: Int) -> FrameTiming {
        FrameTiming(delays: Array(delays.prefix(max(count, 1))), plays: plays)
    }

    /// A delay as the file gives it, as shown.
    public static func shownDelay(_ milliseconds: Int) -> Int {
        milliseconds <= longestShortDelay ? shortDelayShownAs : milliseconds
    }

    public var frameCount: Int { delays.count }

    /// One play of every frame, in milliseconds.
    public var duration: Int { delays.reduce(0, +) }

    /// The frame that shows `elapsed` milliseconds after the animation started; the last one once every play is over.
    public func frame(at elapsed: Int) -> Int {
        guard !delays.isEmpty else { return 0 }
        let duration = duration
        guard duration > 0 else { return 0 }
        if let plays, elapsed >= duration * plays { return delays.count - 1 }
        var into = max(elapsed, 0) % duration
        for (index, delay) in delays.enumerated() {
            if into < delay { return index }
            into -= delay
        }
        return delays.count - 1
    }
}
