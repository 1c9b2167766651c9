import Testing

@testable import GalleryCore

@Suite struct FrameBudgetTests {
    @Test func smallFramesAreHeldAFewAheadWhateverTheirCount() {
        let budget = FrameBudget(
            frameBytes: FrameBudget.frameBytes(width: 500, height: 500), decoderBytes: 2_000_000)
        #expect(budget.framesHeld == FrameBudget.mostFramesAhead + 1)
        #expect(budget.framesAhead == FrameBudget.mostFramesAhead)
    }

    @Test func largeFramesAreHeldFewerSoThatTheBudgetHolds() {
        let frameBytes = FrameBudget.frameBytes(width: 2_000, height: 2_000)
        let decoderBytes = 2 * frameBytes
        let budget = FrameBudget(frameBytes: frameBytes, decoderBytes: decoderBytes)
        #expect(budget.framesHeld == 2)
        #expect(budget.framesHeld * frameBytes + decoderBytes <= ImageLimits.animationBudgetBytes)
    }

    @Test func framesThatDoNotFitTwiceDoNotPlay() {
        let frameBytes = FrameBudget.frameBytes(width: 4_000, height: 4_000)
        #expect(!FrameBudget(frameBytes: frameBytes, decoderBytes: frameBytes).canPlay)
        #expect(!FrameBudget(frameBytes: 0, decoderBytes: 0).canPlay)
        #expect(FrameBudget(frameBytes: 1_000, decoderBytes: 1_000, budgetBytes: 3_000).framesHeld == 2)
    }

    @Test func anAnimationWhoseEveryFrameFitsHoldsThemAll() {
        let frameBytes = FrameBudget.frameBytes(width: 500, height: 500)
        let budget = FrameBudget(frameBytes: frameBytes, decoderBytes: 2_000_000, frameCount: 50)
        #expect(budget.holdsEveryFrame && budget.framesHeld == 50 && budget.framesAhead == 50)
        #expect(50 * frameBytes + 2_000_000 <= ImageLimits.animationBudgetBytes)
        // One frame more than fits: a few ahead, as any other.
        let fitting = (ImageLimits.animationBudgetBytes - 2_000_000) / frameBytes
        let tooMany = FrameBudget(frameBytes: frameBytes, decoderBytes: 2_000_000, frameCount: fitting + 1)
        #expect(!tooMany.holdsEveryFrame && tooMany.framesHeld == FrameBudget.mostFramesAhead + 1)
        #expect(!FrameBudget(frameBytes: frameBytes, decoderBytes: 2_000_000).holdsEveryFrame)
    }
}
