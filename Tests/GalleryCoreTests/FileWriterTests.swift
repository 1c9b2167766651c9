import Foundation
import Testing

@testable import GalleryCore

@Suite struct FileWriterTests {
    private func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("writer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    private func contents(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    private func mode(_ path: String) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    }

    @Test(arguments: [
        FileWriter.document, FileWriter.cache,
        FileWriter(durability: .flushed, mode: .keepExisting(orNew: 0o644), temporaryName: .hiddenTmp),
    ])
    func replacingLeavesTheNewFileAndNothingElse(writer: FileWriter) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("dog.png").path
        try writer.write(Data("old".utf8), to: path, policy: .replace)
        try writer.write(Data("new".utf8), to: path, policy: .replace)
        #expect(try contents(folder) == ["dog.png"])
        #expect(FileManager.default.contents(atPath: path) == Data("new".utf8))
    }

    @Test func creatingNewNeverReplacesAFileAndTakesTheFirstFreeName() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let paths = SavedImageName.numberedPaths("cat.jpg", in: folder.path)
        #expect(
            try FileWriter.document.write(Data("one".utf8), toFirstFreeOf: paths, policy: .createNew).hasSuffix(
                "/cat.jpg"))
        #expect(
            try FileWriter.document.write(Data("two".utf8), toFirstFreeOf: paths, policy: .createNew)
                .hasSuffix("/cat (2).jpg"))
        #expect(
            try FileWriter.document.write(Data("three".utf8), toFirstFreeOf: paths, policy: .createNew)
                .hasSuffix("/cat (3).jpg"))
        #expect(try contents(folder) == ["cat (2).jpg", "cat (3).jpg", "cat.jpg"])
        #expect(try Data(contentsOf: folder.appendingPathComponent("cat.jpg")) == Data("one".utf8))
        #expect(try Data(contentsOf: folder.appendingPathComponent("cat (3).jpg")) == Data("three".utf8))
        let taken = folder.appendingPathComponent("cat.jpg").path
        let error = #expect(throws: FileError.self) {
            try FileWriter.document.write(Data("four".utf8), to: taken, policy: .createNew)
        }
        #expect(error?.code == EEXIST)
        #expect(try contents(folder) == ["cat (2).jpg", "cat (3).jpg", "cat.jpg"])  // no temporary file left
    }

    @Test func creatingInPlaceNeverReplacesAFile() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("001 cat.jpg").path
        try FileWriter.document.write(Data("one".utf8), to: path, policy: .createInPlace)
        let error = #expect(throws: FileError.self) {
            try FileWriter.document.write(Data("two".utf8), to: path, policy: .createInPlace)
        }
        #expect(error?.code == EEXIST)
        #expect(error?.step == .create)
        #expect(FileManager.default.contents(atPath: path) == Data("one".utf8))
        #expect(try contents(folder) == ["001 cat.jpg"])
    }

    @Test func aNewFileHasTheGivenModeAndAReplacedOneKeepsItsOwnWhenAsked() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cached = folder.appendingPathComponent("cached").path
        try FileWriter.cache.write(Data("x".utf8), to: cached, policy: .replace)
        #expect(try mode(cached) == 0o600)
        let kept = FileWriter(durability: .flushed, mode: .keepExisting(orNew: 0o644), temporaryName: .hiddenTmp)
        let state = folder.appendingPathComponent("state.json").path
        try kept.write(Data("1".utf8), to: state, policy: .replace)
        #expect(try mode(state) == 0o644)
        chmod(state, 0o640)
        try kept.write(Data("2".utf8), to: state, policy: .replace)
        #expect(try mode(state) == 0o640)
        // A writer with a mode of its own does not keep the old file's.
        try FileWriter.cache.write(Data("3".utf8), to: state, policy: .replace)
        #expect(try mode(state) == 0o600)
    }

    @Test func temporaryFilesAreNamedForWhatCleansThemUp() {
        let state = FileWriter.TemporaryName.hiddenTmp.name(for: "state.json")
        #expect(state.hasPrefix(".state.json.") && state.hasSuffix(".tmp"))
        let part = FileWriter.TemporaryName.hiddenPart.name(for: String(repeating: "a", count: 300))
        #expect(part.hasPrefix(".a") && part.hasSuffix(".part") && part.utf8.count < 255)
        #expect(FileWriter.TemporaryName.tilde.name(for: "abc").hasPrefix("abc."))
        #expect(FileWriter.TemporaryName.tilde.name(for: "abc").hasSuffix("~"))
    }

    /// A "folder" that is a file refuses every writer, root too (unlike permission bits).
    @Test func aFolderThatIsAFileIsAFailureWithItsReason() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let notAFolder = folder.appendingPathComponent("file")
        try Data("x".utf8).write(to: notAFolder)
        for policy in [FileWriter.Policy.replace, .createNew, .createInPlace] {
            let error = #expect(throws: FileError.self) {
                try FileWriter.document.write(
                    Data("x".utf8), to: notAFolder.appendingPathComponent("a.png").path, policy: policy)
            }
            #expect(error?.code == ENOTDIR)
            #expect(error?.step == .create)
            #expect(error?.description == String(cString: strerror(ENOTDIR)))
        }
        #expect(try contents(folder) == ["file"])
    }

    @Test func aFileThatCannotBeMadeIsAFailureWithItsReasonAndLeavesNothing() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A name that fits but whose temporary sibling does not (NAME_MAX): fails even for root.
        let name = String(repeating: "n", count: 250)
        let error = #expect(throws: FileError.self) {
            try FileWriter.cache.write(Data("x".utf8), to: folder.appendingPathComponent(name).path, policy: .replace)
        }
        #expect(error?.code == ENAMETOOLONG)
        #expect(error?.description == String(cString: strerror(ENAMETOOLONG)))
        let missing = folder.appendingPathComponent("no-such-folder/a.png").path
        for policy in [FileWriter.Policy.replace, .createNew, .createInPlace] {
            let error = #expect(throws: FileError.self) {
                try FileWriter.document.write(Data("x".utf8), to: missing, policy: policy)
            }
            #expect(error?.code == ENOENT)
        }
        #expect(try contents(folder).isEmpty)
    }
}
