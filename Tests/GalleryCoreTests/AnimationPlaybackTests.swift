import Testing

@testable import GalleryCore

@Suite struct AnimationPlaybackTests {
    @Test func framesFollowOneAnotherAndLoopForever() {
        var playback = AnimationPlayback(timing: FrameTiming(fileDelays: [40, 60, 80], plays: nil))
        #expect(playback.frame == 0 && playback.currentDelay == 40)
        var shown: [Int] = []
        for _ in 0..<7 {
            let advanced = playback.advance()
            #expect(advanced)
            shown.append(playback.frame)
        }
        #expect(shown == [1, 2, 0, 1, 2, 0, 1])
        #expect(!playback.isFinished)
    }

    @Test func aLoopCountStopsOnTheLastFrameAndPlayingAgainStartsOver() {
        var playback = AnimationPlayback(timing: FrameTiming(fileDelays: [40, 40], plays: 2))
        var steps = 0
        while playback.advance() { steps += 1 }
        #expect(steps == 3)
        #expect(playback.isFinished && playback.frame == 1 && playback.nextFrame == nil)
        playback.play()
        #expect(playback.frame == 0 && !playback.isFinished)
    }

    @Test func stepsGoBothWaysAroundTheEndsOnlyWhilePaused() {
        var playback = AnimationPlayback(timing: FrameTiming(fileDelays: [40, 40, 40], plays: nil))
        #expect(playback.step(by: 1) == nil)
        playback.pause()
        #expect(playback.step(by: 1) == 1)
        #expect(playback.step(by: 1) == 2)
        #expect(playback.step(by: 1) == 0)
        #expect(playback.step(by: -1) == 2)
        playback.play()
        #expect(playback.isPlaying && playback.frame == 2)
    }

    @Test func framesThatCouldNotBeDecodedAreLeftOut() {
        var playback = AnimationPlayback(timing: FrameTiming(fileDelays: [40, 40, 40, 40], plays: nil))
        for _ in 0..<3 {
            let advanced = playback.advance()
            #expect(advanced)
        }
        playback.limit(toFrames: 2)
        #expect(playback.frame == 1 && playback.timing.frameCount == 2)
        #expect(playback.nextFrame == 0)
    }
}
