import Foundation
import Testing

@testable import GalleryCore

/// The names an exported gallery's files and folder get.
@Suite struct GalleryExportTests {
    @Test func filesAreNumberedInDisplayOrderWithTheirRealExtension() {
        #expect(GalleryExport.fileName(position: 0, count: 3, label: "cat.png", fileExtension: "jpg") == "001 cat.jpg")
        #expect(GalleryExport.fileName(position: 1, count: 3, label: "dog.JPEG", fileExtension: "png") == "002 dog.png")
        #expect(
            GalleryExport.fileName(position: 2, count: 3, label: "photo.php", fileExtension: "webp")
                == "003 photo.php.webp")
        // Sorted by name anywhere, they come in display order.
        let names = (0..<200).map { GalleryExport.fileName(position: $0, count: 200, label: "x", fileExtension: "png") }
        #expect(names == names.sorted())
        #expect(names[9] == "010 x.png" && names[199] == "200 x.png")
    }

    @Test func paddingGrowsWithTheGallery() {
        #expect(GalleryExport.fileName(position: 0, count: 1, label: "a", fileExtension: "png") == "001 a.png")
        #expect(GalleryExport.fileName(position: 41, count: 1000, label: "a", fileExtension: "png") == "0042 a.png")
        #expect(
            GalleryExport.fileName(position: 99_999, count: 100_000, label: "a", fileExtension: "png") == "100000 a.png"
        )
        let names = (0..<1200).map {
            GalleryExport.fileName(position: $0, count: 1200, label: "a", fileExtension: "gif")
        }
        #expect(names == names.sorted())
    }

    @Test func unsafeCharactersAndControlsBecomeUnderscores() {
        #expect(
            GalleryExport.fileName(position: 0, count: 1, label: "a/b\\c:d*e?f\"g<h>i|j.png", fileExtension: "png")
                == "001 a_b_c_d_e_f_g_h_i_j.png")
        #expect(
            GalleryExport.fileName(
                position: 0, count: 1, label: "tab\there\u{0}nul\u{202E}rtl.gif", fileExtension: "gif")
                == "001 tab here_nul_rtl.gif")
        // No hidden file, no trailing dot or space, no path.
        #expect(
            GalleryExport.fileName(position: 0, count: 1, label: "...hidden. .", fileExtension: "png")
                == "001 hidden.png")
        #expect(
            GalleryExport.fileName(position: 0, count: 1, label: "../../etc/passwd", fileExtension: "png")
                == "001 _.._etc_passwd.png")
        #expect(GalleryExport.fileName(position: 0, count: 1, label: "  ", fileExtension: "png") == "001.png")
        #expect(GalleryExport.fileName(position: 0, count: 1, label: "x", fileExtension: "") == "001 x")
    }

    @Test func longNamesAreCutBetweenCharacters() {
        let long = String(repeating: "é", count: 300) + ".jpg"
        let name = GalleryExport.fileName(position: 0, count: 1, label: long, fileExtension: "jpg")
        #expect(name.utf8.count <= GalleryExport.maxNameBytes)
        #expect(name.hasPrefix("001 éé") && name.hasSuffix("é.jpg"))
        #expect(String(decoding: Array(name.utf8), as: UTF8.self) == name)
    }

    @Test func duplicateLabelsGetDistinctNames() {
        let names = (0..<3).map {
            GalleryExport.fileName(position: $0, count: 3, label: "image.png", fileExtension: "png")
        }
        #expect(Set(names).count == 3)
        #expect(Set(names.map { $0.lowercased() }).count == 3)
    }

    @Test func theFolderIsNamedAfterTheGalleryWithoutTakingAnExistingName() {
        #expect(GalleryExport.folderName(for: "Cats", taken: [], fallback: "Gallery") == "Cats")
        #expect(GalleryExport.folderName(for: "Cats", taken: ["cats", "Cats 2"], fallback: "Gallery") == "Cats 3")
        #expect(
            GalleryExport.folderName(for: "Kitchen: ideas / 2024?", taken: [], fallback: "Gallery")
                == "Kitchen_ ideas _ 2024_")
        #expect(GalleryExport.folderName(for: " ... ", taken: [], fallback: "Gallery") == "Gallery")
        #expect(GalleryExport.folderName(for: "con", taken: [], fallback: "Gallery") == "con_")
    }

    @Test func extensionsComeFromTheBytesElseTheLabel() {
        #expect(ImageFormat.fileExtension(forMIMEType: "image/jpeg") == "jpg")
        #expect(ImageFormat.fileExtension(forMIMEType: "image/svg+xml") == "svg")
        #expect(ImageFormat.fileExtension(forMIMEType: "text/html") == nil)
        #expect(GalleryExport.labelExtension("picture.XPM") == "xpm")
        #expect(GalleryExport.labelExtension("README") == nil)
        #expect(GalleryExport.labelExtension(".hidden") == nil)
    }

    @Test func theManifestRoundTrips() throws {
        let manifest = ExportManifest(
            name: "Cats",
            images: [
                .init(file: "001 cat.jpg", url: "https://example.org/cat.jpg", aspectRatio: 1.5),
                .init(file: nil, url: "https://example.org/gone.png", aspectRatio: 1),
            ])
        let data = manifest.encoded()
        let json = try #require(JSONFile.value(data))
        #expect(json["name"]?.string == "Cats" && json["version"]?.integer == 1)
        let images = try #require(json["images"]?.array)
        #expect(images.map { $0["file"]?.string } == ["001 cat.jpg", nil])
        #expect(images.map { $0["url"]?.string } == manifest.images.map(\.url))
        #expect(images.map { $0["aspectRatio"]?.double } == [1.5, 1])
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"url\" : \"https://example.org/cat.jpg\""))
    }

    @Test func theManifestCarriesOriginAndNoteUnderTheStateFilesNames() throws {
        var image = GalleryImage(url: "https://example.org/cat.jpg", aspectRatio: 1.5)
        image.origin = ImageOrigin(
            arrival: .drop, added: "2026-11-26T22:40:00Z", link: "https://example.org/tom",
            page: "https://example.org/cats", altText: "A cat", title: "Tom", browserDescription: "Tom, a cat")
        image.note = "The light"
        let data = ExportManifest(name: "Cats", images: [.init(image, file: "001 cat.jpg")]).encoded()
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let entry = try #require((json["images"] as? [[String: Any]])?.first)
        #expect(entry["note"] as? String == "The light")
        #expect(
            entry["origin"] as? [String: String] == [
                "arrival": "drop", "added": "2026-11-26T22:40:00Z", "link": "https://example.org/tom",
                "page": "https://example.org/cats", "alt": "A cat", "title": "Tom", "description": "Tom, a cat",
            ])
        // The state file reads the same fields under the same names.
        let origin = String(decoding: try JSONSerialization.data(withJSONObject: entry["origin"]!), as: UTF8.self)
        let stateFile =
            #"{"version":1,"galleries":[{"id":"g","name":"C","images":[{"id":"i","url":"u","aspectRatio":1,"origin":"#
            + origin + "}]}]}"
        let state = try StateFileFormat.decode(Data(stateFile.utf8))
        #expect(state.galleries.first?.images.first?.origin == image.origin)
    }

    @Test func theManifestCarriesTheFingerprintPaletteAndMergedCopies() throws {
        var image = GalleryImage(url: "https://example.org/cat.jpg", aspectRatio: 1.5)
        let red = OklabColour(red: 0.8, green: 0.1, blue: 0.1)
        let white = OklabColour(red: 1, green: 1, blue: 1)
        let palette = Palette(swatches: [.init(colour: red, share: 0.6), .init(colour: white, share: 0.4)])
        image.likeness = Likeness(fingerprint: Fingerprint(rawValue: 0x0123_4567_89AB_CDEF), palette: palette)
        image.mergedCopies = [
            MergedCopy(url: "https://other.org/cat.webp", origin: ImageOrigin(arrival: .paste, page: "https://o.org/"))
        ]
        let data = ExportManifest(name: "Cats", images: [.init(image, file: "001 cat.jpg")]).encoded()
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let entry = try #require((json["images"] as? [[String: Any]])?.first)
        #expect(entry["fingerprint"] as? String == "0123456789abcdef")
        let swatches = try #require(entry["palette"] as? [[String: Any]])
        #expect(swatches.count == 2)
        #expect(swatches.map { $0["share"] as? Double } == [0.6, 0.4])
        #expect(swatches.map { $0["srgb"] as? String }.allSatisfy { $0?.count == 7 && $0?.first == "#" })
        let firstColour = try #require(swatches[0]["srgb"] as? String)
        let redChannel = try #require(Int(firstColour.dropFirst().prefix(2), radix: 16))
        let greenChannel = try #require(Int(firstColour.dropFirst(3).prefix(2), radix: 16))
        #expect(redChannel > 150 && greenChannel < 80)
        let lightness = try #require((swatches[1]["oklab"] as? [Double])?.first)
        #expect(lightness > 0.9)
        let copies = try #require(entry["mergedCopies"] as? [[String: Any]])
        #expect(copies.count == 1 && copies[0]["url"] as? String == "https://other.org/cat.webp")
        #expect(copies[0]["origin"] as? [String: String] == ["arrival": "paste", "page": "https://o.org/"])
        // The fingerprint and palette are the ones the state file keeps, read back from the manifest's texts.
        let saved = "\(entry["fingerprint"]!)." + String(palette.rawValue, radix: 16)
        #expect(Likeness(savedText: saved) == image.likeness)
    }

    @Test func aManifestWithoutOriginOrNoteIsTheFirstVersionsShape() throws {
        var image = GalleryImage(url: "https://example.org/a.png", aspectRatio: 1)
        image.origin = ImageOrigin()
        let data = ExportManifest(name: "A", images: [.init(image, file: "001 a.png")]).encoded()
        let entry = try #require(
            ((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["images"] as? [[String: Any]])?.first)
        #expect(Set(entry.keys) == ["file", "url", "aspectRatio"])
        // The bytes the first version wrote (Foundation's `JSONEncoder`, pretty-printed and sorted).
        let first = """
            {
              "images" : [
                {
                  "aspectRatio" : 1,
                  "file" : "001 a.png",
                  "url" : "https://example.org/a.png"
                }
              ],
              "name" : "A",
              "version" : 1
            }
            """
        #expect(String(decoding: data, as: UTF8.self) == first)
    }

    @Test func theSidecarIsTheImagesNameWithXMPForItsExtension() {
        #expect(GalleryExport.sidecarName(forFile: "001 cat.jpg") == "001 cat.xmp")
        #expect(GalleryExport.sidecarName(forFile: "002 photo.php.webp") == "002 photo.php.xmp")
        #expect(GalleryExport.sidecarName(forFile: "003 x") == "003 x.xmp")
        #expect(GalleryExport.sidecarName(forFile: "004.png") == "004.xmp")
        // Never the image itself.
        #expect(GalleryExport.sidecarName(forFile: "005 notes.xmp") == nil)
    }
}
