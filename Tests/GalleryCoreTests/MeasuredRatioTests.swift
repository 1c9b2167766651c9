import Testing

@testable import GalleryCore

/// A shape measured from a file on this computer is not written into a library another computer reads.
@Suite struct MeasuredRatioTests {
    @Test func aFileHereIsNotMeasuredIntoASharedLibrary() {
        let file = GalleryImage(url: "file:///home/user/.ssh/id_rsa", aspectRatio: 0)
        let upper = GalleryImage(url: "FILE:///home/user/photo.jpg", aspectRatio: 0)
        let web = GalleryImage(url: "https://example.com/a.png", aspectRatio: 0)
        var kept = GalleryImage(url: "file:///home/user/photo.jpg", aspectRatio: 0)
        kept.original = KeptOriginal(
            sha256: String(repeating: "a", count: 64), byteCount: 1, pixelWidth: 1, pixelHeight: 1, format: "png")
        #expect(!MeasuredRatio.mayRecord(for: file, libraryIsShareable: true))
        #expect(!MeasuredRatio.mayRecord(for: upper, libraryIsShareable: true))
        #expect(MeasuredRatio.mayRecord(for: web, libraryIsShareable: true))
        #expect(MeasuredRatio.mayRecord(for: kept, libraryIsShareable: true))
        #expect(MeasuredRatio.mayRecord(for: file, libraryIsShareable: false))
    }
}
