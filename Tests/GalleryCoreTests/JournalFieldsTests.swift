import Testing

@testable import GalleryCore

@Suite("An image's fields as the journal sets them")
struct JournalFieldsTests {
    /// Every value read as JSON text, as a log or a snapshot holds it.
    private static let values: [(name: String, text: String?)] = [
        ("id", "\"i2\""), ("url", nil), ("url", "\"https://e.org/2.png\""), ("url", "3"), ("aspectRatio", nil),
        ("aspectRatio", "1.5"), ("aspectRatio", "\"wide\""), ("note", "\"For the kitchen wall\""), ("note", "7"),
        ("note", nil), ("tags", "[ \"cats/grey\" ,\n \"walls\" ]"), ("tags", "[1, 2]"),
        ("likeness", "\"0123456789abcdef.0f00000000000001\""), ("likeness", "\"not one\""),
        ("animation", "{\"frames\": 4, \"duration\": 800}"), ("animation", "{\"frames\":1}"),
        ("origin", "{\"page\":\"https://e.org/\"}"), ("newerVersionsField", "{ \"a\" : [ 1 , \"b c\" ] }"),
    ]

    @Test func aFieldIsValidExactlyWhenSettingItInAnImageIs() {
        for (name, text) in Self.values {
            let value = text.map { RawJSON(read: Array($0.utf8)) }
            var image = GalleryImage(id: ImageID("i1"), url: "https://e.org/1.png", aspectRatio: 1)
            let isSet = JournalFields.setImageField(name, to: value, in: &image)
            #expect(JournalFields.isValidImageField(name, value) == isSet, "\(name): \(text ?? "removed")")
        }
        #expect(!JournalFields.isValidImageField("id", nil) && !JournalFields.isValidImageField("url", nil))
        #expect(JournalFields.isValidImageField("note", nil))
    }

    @Test func aValueWithWhiteSpaceSetsTheFieldItsCompactTextSets() {
        for (name, text) in Self.values {
            guard let text else { continue }
            let spaced = RawJSON(read: Array(text.utf8))
            var fromSpaced = GalleryImage(id: ImageID("i1"), url: "https://e.org/1.png", aspectRatio: 1)
            var fromCompact = fromSpaced
            let spacedIsSet = JournalFields.setImageField(name, to: spaced, in: &fromSpaced)
            let compactIsSet = JournalFields.setImageField(name, to: spaced.compacted, in: &fromCompact)
            #expect(spacedIsSet == compactIsSet && fromSpaced == fromCompact, "\(name): \(text)")
            #expect(fromSpaced.unknownFields.values.allSatisfy { $0.bytes == RawJSON.compact($0.bytes) })
        }
    }
}
