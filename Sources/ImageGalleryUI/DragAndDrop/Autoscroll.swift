/// Edge autoscroll while a drag hovers near the top or bottom.
struct Autoscroll {
    var pointerOffsetInView: Double
    /// Points per second; negative scrolls up.
    var speed: Double
    var tick: UInt32?
    var lastTime: Int?
    var startTime: Int?
    /// Seconds the pointer rests in the edge zone before scrolling starts.
    static let dwell = 0.25

    init(pointerOffsetInView: Double, speed: Double) {
        self.pointerOffsetInView = pointerOffsetInView
        self.speed = speed
    }
}
