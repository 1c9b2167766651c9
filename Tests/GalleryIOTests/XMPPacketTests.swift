import CExempi
import Foundation
import GalleryCore
import Testing

@testable import GalleryIO

/// Sidecars as Exempi writes them, read back by Exempi's parser: what an image manager finds in them.
@Suite struct XMPPacketTests {
    private static let dublinCore = "http://purl.org/dc/elements/1.1/"
    private static let xmpBasic = "http://ns.adobe.com/xap/1.0/"

    /// The packet `data` parsed, for `read`.
    private final class Parsed {
        let packet: XmpPtr

        init(_ data: Data) throws {
            packet = try #require(data.withUnsafeBytes { xmp_new($0.baseAddress, $0.count) })
        }

        deinit { xmp_free(packet) }

        func property(_ schema: String, _ name: String) -> String? {
            read { xmp_get_property(packet, schema, name, $0, nil) }
        }

        func text(_ name: String) -> String? {
            read { xmp_get_localized_text(packet, XMPPacketTests.dublinCore, name, "", "x-default", nil, $0, nil) }
        }

        func item(_ name: String, _ index: Int32) -> String? {
            read { xmp_get_array_item(packet, XMPPacketTests.dublinCore, name, index, $0, nil) }
        }

        private func read(_ get: (XmpStringPtr) -> Bool) -> String? {
            guard let value = xmp_string_new() else { return nil }
            defer { xmp_string_free(value) }
            return get(value) ? String(cString: xmp_string_cstr(value)) : nil
        }
    }

    private func catImage() -> GalleryImage {
        var image = GalleryImage(url: "https://example.org/img/cat.jpg", aspectRatio: 1.5)
        image.origin = ImageOrigin(
            arrival: .drop, added: "2026-11-26T22:40:00Z", link: "https://example.org/cats/tom",
            page: "https://example.org/cats", altText: "A grey cat", title: "Tom on the sofa")
        image.note = "Kept for the <light> & the \"colours\" — ça, ёж"
        return image
    }

    @Test func theSourceTitleDescriptionAndDatesReadBack() throws {
        let metadataDate = Date(timeIntervalSince1970: 1_800_000_000)
        let data = try #require(
            XMPPacket.sidecar(ExportSidecar(image: catImage(), mediaType: "image/jpeg"), metadataDate: metadataDate))
        let parsed = try Parsed(data)
        #expect(parsed.property(Self.dublinCore, "source") == "https://example.org/img/cat.jpg")
        #expect(parsed.text("title") == "Tom on the sofa")
        #expect(parsed.text("description") == "Kept for the <light> & the \"colours\" — ça, ёж")
        #expect(parsed.item("relation", 1) == "https://example.org/cats")
        #expect(parsed.item("relation", 2) == "https://example.org/cats/tom")
        #expect(parsed.item("relation", 3) == nil)
        #expect(parsed.property(Self.dublinCore, "format") == "image/jpeg")
        #expect(parsed.property(Self.xmpBasic, "CreateDate") == "2026-11-26T22:40:00Z")
        #expect(parsed.property(Self.xmpBasic, "MetadataDate") == "2027-01-15T08:00:00Z")
    }

    @Test func itIsASidecarNotAnEmbeddedPacket() throws {
        let data = try #require(XMPPacket.sidecar(ExportSidecar(image: catImage(), mediaType: "image/jpeg")))
        let text = try #require(String(data: data, encoding: .utf8))
        #expect(text.hasPrefix("<x:xmpmeta"))
        #expect(!text.contains("<?xpacket"))
        // The note's markup is escaped, not taken for XML.
        #expect(!text.contains("<light>"))
    }

    @Test func anImageWithoutOriginOrNoteHasOnlyItsSource() throws {
        let image = GalleryImage(url: "https://example.org/a.png", aspectRatio: 1)
        let parsed = try Parsed(try #require(XMPPacket.sidecar(ExportSidecar(image: image, mediaType: nil))))
        #expect(parsed.property(Self.dublinCore, "source") == "https://example.org/a.png")
        #expect(parsed.text("title") == nil)
        #expect(parsed.text("description") == nil)
        #expect(parsed.item("relation", 1) == nil)
        #expect(parsed.property(Self.dublinCore, "format") == nil)
        #expect(parsed.property(Self.xmpBasic, "CreateDate") == nil)
    }

    @Test func controlCharactersInANoteLeaveTheSidecarReadable() throws {
        var image = GalleryImage(url: "https://example.org/a.png", aspectRatio: 1)
        image.note = "line one\nbell\u{7}\u{0}end\u{FFFF}"
        let parsed = try Parsed(try #require(XMPPacket.sidecar(ExportSidecar(image: image, mediaType: "image/png"))))
        #expect(parsed.text("description") == "line one\nbellend")
    }

    @Test func manyThreadsWriteSidecarsAtOnce() async throws {
        let image = catImage()
        let sizes = await withTaskGroup(of: Int?.self) { group in
            for _ in 0..<64 {
                group.addTask { XMPPacket.sidecar(ExportSidecar(image: image, mediaType: "image/jpeg"))?.count }
            }
            return await group.reduce(into: Set<Int?>()) { $0.insert($1) }
        }
        #expect(sizes.count == 1 && sizes.first! != nil)
    }
}
