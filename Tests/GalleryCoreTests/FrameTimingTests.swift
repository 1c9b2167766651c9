import Testing

@testable import GalleryCore

@Suite struct FrameTimingTests {
    @Test func delaysOfTenMillisecondsOrLessShowAsAHundredAsInBrowsers() {
        let timing = FrameTiming(fileDelays: [0, 10, 11, 20, 500], plays: nil)
        #expect(timing.delays == [100, 100, 11, 20, 500])
        #expect(timing.duration == 731)
    }

    @Test func theFrameAtATimeFollowsTheDelaysAndLoopsForever() {
        let timing = FrameTiming(fileDelays: [100, 200, 300], plays: nil)
        #expect(timing.frame(at: 0) == 0)
        #expect(timing.frame(at: 99) == 0)
        #expect(timing.frame(at: 100) == 1)
        #expect(timing.frame(at: 299) == 1)
        #expect(timing.frame(at: 300) == 2)
        #expect(timing.frame(at: 600) == 0)
        #expect(timing.frame(at: 6_000 + 150) == 1)
    }

    @Test func aLoopCountEndsOnTheLastFrame() {
        let timing = FrameTiming(fileDelays: [100, 100], plays: 2)
        #expect(timing.frame(at: 250) == 0)
        #expect(timing.frame(at: 399) == 1)
        #expect(timing.frame(at: 400) == 1)
        #expect(timing.frame(at: 10_000) == 1)
    }

    @Test func zeroPlaysCountAsOne() {
        #expect(FrameTiming(fileDelays: [50, 50], plays: 0).plays == 1)
    }
}
