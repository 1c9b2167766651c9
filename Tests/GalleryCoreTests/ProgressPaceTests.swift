import Testing

@testable import GalleryCore

@Suite struct ProgressPaceTests {
    @Test func aShortTaskSaysNothingAndALongOneIsShownAFewTimesASecond() {
        var pace = ProgressPace(startedAt: 5_000_000)
        // Advancing every millisecond for the first second: nothing shown.
        #expect(!(0...1_000).contains { pace.shows(at: 5_000_000 + $0 * 1_000) })
        #expect(!pace.hasShown)
        // Then every millisecond for two seconds: shown at once, then every quarter of a second.
        let shown = (1_001...3_000).map { 5_000_000 + $0 * 1_000 }.filter { pace.shows(at: $0) }
        #expect(shown == [6_001_000, 6_251_000, 6_501_000, 6_751_000, 7_001_000, 7_251_000, 7_501_000, 7_751_000])
        #expect(pace.hasShown)
    }

    @Test func progressComingRarelyIsShownEachTime() {
        var pace = ProgressPace(startedAt: 0)
        #expect([1_500_000, 2_000_000, 2_400_000, 3_000_000].allSatisfy { pace.shows(at: $0) })
    }
}
