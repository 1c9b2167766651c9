import Testing

@testable import GalleryCore

struct OneLineTests {
    @Test func shortTextIsKeptWithItsBreaksAsSpaces() {
        let line = OneLine.of("  Café\ncrème\r\nsur\tla terrasse \n", maximumCharacters: 40)
        #expect(line == "Café crème sur la terrasse")
    }

    @Test func longTextIsCutToTheCapWithAnEllipsis() {
        let line = OneLine.of(String(repeating: "word ", count: 1_000_000), maximumCharacters: 20)
        #expect(line.count <= 20)
        #expect(line == "word word word word…")
    }

    /// A flag is two scalars, an accent added to its letter another: neither is split.
    @Test func theCutFallsBetweenCharactersAsReadersCountThem() {
        let flags = String(repeating: "🇫🇷", count: 30)
        #expect(OneLine.of(flags, maximumCharacters: 10) == String(repeating: "🇫🇷", count: 9) + "…")
        let accented = String(repeating: "e\u{301}", count: 30)
        #expect(OneLine.of(accented, maximumCharacters: 5) == String(repeating: "e\u{301}", count: 4) + "…")
    }
}
