import Foundation
import Testing

@testable import GalleryCore

struct RandomIDTests {
    @Test func idsAreLowercaseVersion4UUIDsAndDoNotRepeat() {
        let ids = (0..<10_000).map { _ in ImageID.make().rawValue }
        #expect(Set(ids).count == ids.count)
        for id in ids.prefix(100) {
            let characters = Array(id)
            #expect(UUID(uuidString: id) != nil, "\(id)")
            #expect(id == id.lowercased())
            #expect(characters[14] == "4", "version 4: \(id)")
            #expect("89ab".contains(characters[19]), "RFC 4122 variant: \(id)")
        }
    }

    @Test func everyBitButTheVersionAndVariantVaries() {
        // Over 256 IDs, a bit stuck at 0 or 1 would mean bytes were not filled from the generator.
        let ids = (0..<256).map { _ in UUID(uuidString: Gallery(name: "x").id)! }
        var seenSet = [UInt8](repeating: 0, count: 16)
        var seenClear = [UInt8](repeating: 0, count: 16)
        for id in ids {
            let bytes = withUnsafeBytes(of: id.uuid) { Array($0) }
            for index in 0..<16 {
                seenSet[index] |= bytes[index]
                seenClear[index] |= ~bytes[index]
            }
        }
        let fixed: [Int: UInt8] = [6: 0xF0, 8: 0xC0]
        for index in 0..<16 {
            let mask = ~(fixed[index] ?? 0)
            #expect(seenSet[index] & mask == mask && seenClear[index] & mask == mask, "byte \(index)")
        }
    }
}
