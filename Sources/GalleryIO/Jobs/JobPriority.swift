/// Which job a lane runs next: the higher class first; within a class, the newest first (what the
/// user looks at now), except a drop's images, which run in drop order, and background work, which
/// runs in the order it came.
public struct JobPriority: Sendable, Equatable {
    enum Class: Int, Sendable {
        case viewer
        case visible
        case drop
        case prefetch
        case background
    }

    let jobClass: Class
    /// Within the class, lower runs first; nil: by arrival, as the class orders it.
    let order: Int?

    /// The image the viewer shows: it fills the window.
    public static let viewer = JobPriority(jobClass: .viewer, order: nil)
    /// Cells on screen now.
    public static let visible = JobPriority(jobClass: .visible, order: nil)
    /// Cells about to scroll into view.
    public static let prefetch = JobPriority(jobClass: .prefetch, order: nil)
    /// Work nobody watches: export, saving, clean-up.
    public static let background = JobPriority(jobClass: .background, order: nil)

    /// Whether work of this priority may serve a request of `other`'s too: not when `other` goes first.
    func mayBeShared(by other: JobPriority) -> Bool { other.jobClass.rawValue >= jobClass.rawValue }

    /// Where a job (or a transfer) of this priority that came `arrival`-th goes in its queue: lower first.
    func rank(arrival: Int) -> (jobClass: Int, order: Int) {
        switch jobClass {
        case .drop: (jobClass.rawValue, order ?? arrival)
        case .background: (jobClass.rawValue, arrival)
        case .viewer, .visible, .prefetch: (jobClass.rawValue, -arrival)
        }
    }

    /// The image at `position` among everything dropped since launch: the first image of a drop (where
    /// it landed) first, and a drop after the ones before it.
    public static func drop(_ position: Int) -> JobPriority {
        JobPriority(jobClass: .drop, order: position)
    }
}
