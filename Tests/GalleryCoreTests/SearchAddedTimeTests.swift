import Testing

@testable import GalleryCore

/// A record's time added reads back as the text it was made from and sorts as that text does; a text of another shape
/// is told apart, to be compared as text.
@Suite struct SearchAddedTimeTests {
    @Test func timesReadBackAndSortAsTheirTexts() {
        var random = SplitMix64(seed: 50)
        func two(_ range: ClosedRange<Int>) -> String {
            let value = Int.random(in: range, using: &random)
            return value < 10 ? "0\(value)" : "\(value)"
        }
        let texts =
            (0..<500).map { _ in
                let year = String(Int.random(in: 1_000...9_999, using: &random))
                return "\(year)-\(two(1...12))-\(two(1...28))T\(two(0...23)):\(two(0...59)):\(two(0...59))Z"
            } + ["0000-01-01T00:00:00Z", "0042-03-04T05:06:07Z", "9999-12-31T23:59:59Z"]
        for text in texts {
            let time = SearchAddedTime(text[...])
            #expect(time.text == text)
            #expect(!time.isOtherText)
        }
        for (left, right) in zip(texts, texts.shuffled(using: &random)) {
            #expect(SearchAddedTime(left[...]).isBefore(SearchAddedTime(right[...])) == (left < right))
        }
    }

    @Test func otherShapesAreToldApart() {
        #expect(SearchAddedTime(nil) == .none)
        #expect(SearchAddedTime(nil).text == nil)
        for text in [
            "2026-05", "2026-05-01T00:00:00.5Z", "2026-05-01t00:00:00z", "2026-05-01T00:00:00+02:00", "",
            "2026-05-01T00:00:0xZ",
        ] {
            let time = SearchAddedTime(text[...])
            #expect(time.isOtherText, "\(text)")
            #expect(time.text == nil)
            #expect(time.isBefore(SearchAddedTime("2026-05-01T00:00:00Z"[...])) == nil)
        }
    }
}
