import Testing

@testable import GalleryCore

@Suite("An image's field registers")
struct ImageFieldRegistersTests {
    private func register(_ counter: UInt64, _ note: String?) -> JournalRegister<RawJSON?> {
        JournalRegister(
            stamp: JournalStamp(counter: counter, computer: "alpha"), value: note.map { RawJSON(.string($0)) })
    }

    @Test func registersAreKeptByNameInTheOrderOfTheirNamesWhateverTheOrderTheyCameIn() {
        var fields = ImageFieldRegisters()
        #expect(fields.isEmpty)
        for (counter, name) in ["tags", "likeness", "note", "animation", "note"].enumerated() {
            fields[name] = register(UInt64(counter + 2), name)
        }
        #expect(fields.map(\.name) == ["animation", "likeness", "note", "tags"])
        #expect(fields["note"] == register(6, "note") && fields["origin"] == nil)
        fields["likeness"] = nil
        fields["origin"] = nil
        #expect(fields.map(\.name) == ["animation", "note", "tags"])
        fields.removeAll { $0.stamp.counter < 5 }
        #expect(fields.map(\.name) == ["animation", "note"])
    }

    @Test func twoSetsOfRegistersAreEqualWhenTheyHoldTheSameRegistersWhateverTheOrderOfTheirSetting() {
        var first = ImageFieldRegisters()
        var second = ImageFieldRegisters()
        first["note"] = register(3, "a")
        first["tags"] = register(4, nil)
        second["tags"] = register(4, nil)
        second["note"] = register(3, "a")
        #expect(first == second && first.hashValue == second.hashValue)
        second["note"] = register(3, "b")
        #expect(first != second)
    }
}
