import Testing

@testable import GalleryCore

@Suite("An image's fields as the journal sets them")
struct JournalFieldsTests {
    /// Every value read as JSON text, as a log or a snapshot holds it.
    private static let values: [(name: String, text: String?)] = [
        ("id", "\"i2\""), ("url", nil), ("url", "\"https://e.org/2.png\""), ("url", "3"), ("aspectRatio", nil),
        ("aspectRatio", "1.5"), ("aspectRatio", "\"wide\""), ("note", "\"For the kitchen wall\""), ("note", "7"),
        ("note", nil), ("tags", "[ \"cats/grey\" ,\n \"walls\" ]"), ("tags", "[1, 2]"),
        ("likeness", "\"0123456789abcdef.8a5c4a2b3d1c1e2f\""), ("likeness", "\"not one\""),
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

    @Test func measurementsSetAfterArrivalMakeTheImageTheLongWayMakes() {
        var described = GalleryImage(id: ImageID("i1"), url: "https://e.org/1.png", aspectRatio: 1)
        described.origin = ImageOrigin(arrival: .drop, altText: "A “grey” cat")
        described.note = "For the kitchen wall"
        described.tags = ["cats/grey"]
        var oddlyMeasured = described
        oddlyMeasured.unknownFields["likeness"] = RawJSON(.string("not one"))
        let images = [
            GalleryImage(id: ImageID("i2"), url: "https://e.org/2.png", aspectRatio: 2), described, oddlyMeasured,
        ]
        let likeness = RawJSON(.string("0123456789abcdef.8a5c4a2b3d1c1e2f"))
        let animation = RawJSON(.object(["frames": .number("4"), "duration": .number("800")]))
        let settings: [[(name: String, value: RawJSON?)]] = [
            [("likeness", likeness)], [("animation", animation)], [("animation", animation), ("likeness", likeness)],
            [("likeness", nil)], [("likeness", RawJSON(.string("not one")))], [("likeness", likeness), ("note", nil)],
        ]
        for image in images {
            for values in settings {
                var set = image
                #expect(JournalFields.setImageFields(values, in: &set))
                // The long way: every field unpacked, set, packed again.
                var fields = image.detailFields
                for (name, value) in values {
                    var scratch = GalleryImage(id: image.id, url: image.url, aspectRatio: image.aspectRatio)
                    #expect(JournalFields.setImageField(name, to: value, in: &scratch))
                    switch name {
                    case "likeness": fields.likeness = scratch.likeness
                    case "animation": fields.animation = scratch.animation
                    default: fields.note = scratch.note
                    }
                    fields.unknownFields[name] = scratch.unknownFields[name]
                }
                var expected = image
                expected.detailFields = fields
                #expect(set == expected && set.detailFields == fields, "\(values.map(\.name))")
                if values.count == 1, values[0].name == "likeness", values[0].value == likeness {
                    #expect(set.likeness != nil && set.unknownFields["likeness"] == nil)
                }
                #expect(set.note == image.note || values.contains { $0.name == "note" })
            }
        }
    }
}
