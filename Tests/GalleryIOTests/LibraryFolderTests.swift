import Foundation
import GalleryCore
import Testing

@testable import GalleryIO

/// Nothing under the library's folder is followed out of it: a link another computer put there (to a folder, to a
/// file) leads no write, read, listing or delete elsewhere; the library's folder itself may be the user's link.
@Suite struct LibraryFolderTests {
    let library: TemporaryDirectory
    let outside: TemporaryDirectory

    init() throws {
        library = try TemporaryDirectory()
        outside = try TemporaryDirectory()
    }

    private func cleanUp() {
        library.remove()
        outside.remove()
    }

    private func link(_ name: String, to target: URL) throws {
        try FileManager.default.createSymbolicLink(
            atPath: library.url.appendingPathComponent(name).path, withDestinationPath: target.path)
    }

    /// The outside folder's names and their bytes.
    private func outsideContents() throws -> [String: Data] {
        var contents: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: outside.url.path) {
            contents[name] = try Data(contentsOf: outside.url.appendingPathComponent(name))
        }
        return contents
    }

    @Test func aLinkedSubfolderIsRefusedAndNothingIsMadeThroughIt() throws {
        defer { cleanUp() }
        try link("originals", to: outside.url)
        let folder = try LibraryFolder.open(library.url)
        #expect(folder.kind(of: "originals") == .link)
        #expect(throws: FileError.self) { try folder.folder("originals") }
        let error = try #require(throws: FileError.self) { try folder.folder(at: ["originals", "ab"], creating: true) }
        #expect(error.code == ELOOP)
        #expect(try outsideContents().isEmpty)
    }

    @Test func foldersAreMadeBeneathWithoutFollowingAndPrivate() throws {
        defer { cleanUp() }
        let made = try LibraryFolder.open(library.url).folder(at: ["originals", "ab"], creating: true)
        var status = stat()
        #expect(lstat(made.url.path, &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFDIR)
        #expect(status.st_mode & 0o777 == 0o700)
        #expect(made.url.path == library.url.appendingPathComponent("originals/ab").path)
    }

    @Test func theLibraryFolderItselfMayBeTheUsersLink() throws {
        defer { cleanUp() }
        let chosen = outside.url.appendingPathComponent("chosen")
        try FileManager.default.createSymbolicLink(atPath: chosen.path, withDestinationPath: library.url.path)
        let folder = try LibraryFolder.open(chosen).folder("originals", creating: true)
        try FileWriter.kept.write(Data("kept".utf8), named: "file", in: folder, policy: .replace)
        #expect(try Data(contentsOf: library.url.appendingPathComponent("originals/file")) == Data("kept".utf8))
    }

    @Test func removingALinkRemovesTheLinkNotItsTarget() throws {
        defer { cleanUp() }
        let bystander = try outside.write([1, 2, 3], to: "bystander")
        try link("x.part", to: URL(fileURLWithPath: bystander))
        try link("linked-folder", to: outside.url)
        let folder = try LibraryFolder.open(library.url)
        #expect(folder.remove("x.part"))
        #expect(!folder.removeEmptyFolder("linked-folder"))
        #expect(folder.kind(of: "x.part") == nil)
        #expect(folder.kind(of: "linked-folder") == .link)
        #expect(try outsideContents() == ["bystander": Data([1, 2, 3])])
    }

    @Test func aFileWrittenOverALinkReplacesTheLink() throws {
        defer { cleanUp() }
        let bystander = try outside.write([1, 2, 3], to: "bystander")
        try link("state.json", to: URL(fileURLWithPath: bystander))
        let folder = try LibraryFolder.open(library.url)
        try FileWriter.kept.write(Data("new".utf8), named: "state.json", in: folder, policy: .replace)
        #expect(folder.kind(of: "state.json") == .regularFile)
        #expect(try outsideContents() == ["bystander": Data([1, 2, 3])])
    }

    @Test func aLinkedFileIsNotReadAndNamesLeadingElsewhereAreRefused() throws {
        defer { cleanUp() }
        let secret = try outside.write(Array("secret".utf8), to: "secret")
        try link("original", to: URL(fileURLWithPath: secret))
        let folder = try LibraryFolder.open(library.url)
        #expect(throws: FileReader.Failure.unreadable(code: ELOOP)) { try FileReader.read("original", in: folder) }
        for name in ["..", ".", "", "a/b", "../\(outside.url.lastPathComponent)"] {
            #expect(throws: FileError.self) { try folder.folder(name, creating: true) }
            #expect(!folder.remove(name))
        }
    }

    @Test func listingGivesTheFoldersOwnNames() throws {
        defer { cleanUp() }
        _ = try outside.write([1], to: "elsewhere")
        _ = try library.write([1], to: "a")
        try link("b", to: outside.url)
        #expect(try LibraryFolder.open(library.url).names().sorted() == ["a", "b"])
        #expect(throws: FileError.self) { try LibraryFolder.open(library.url).folder("b") }
    }
}
