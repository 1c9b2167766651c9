import Foundation
import Testing
@testable import GalleryCore

@Suite struct ImageFileWriterTests {
    private func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("writer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    private func contents(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func savingIntoAFolderNeverReplacesAFile() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try ImageFileWriter.writeBesideOthers(Data("one".utf8), named: "cat.jpg", in: folder.path) == "cat.jpg")
        #expect(try ImageFileWriter.writeBesideOthers(Data("two".utf8), named: "cat.jpg", in: folder.path) == "cat (2).jpg")
        #expect(try ImageFileWriter.writeBesideOthers(Data("three".utf8), named: "cat.jpg", in: folder.path) == "cat (3).jpg")
        #expect(try contents(folder) == ["cat (2).jpg", "cat (3).jpg", "cat.jpg"])
        #expect(try Data(contentsOf: folder.appendingPathComponent("cat.jpg")) == Data("one".utf8))
        #expect(try Data(contentsOf: folder.appendingPathComponent("cat (3).jpg")) == Data("three".utf8))
    }

    @Test func saveAsReplacesTheChosenFileAndLeavesNothingElse() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("dog.png").path
        try ImageFileWriter.write(Data("old".utf8), to: path)
        try ImageFileWriter.write(Data("new".utf8), to: path)
        #expect(try contents(folder) == ["dog.png"])
        #expect(FileManager.default.contents(atPath: path) == Data("new".utf8))
    }

    @Test func aFolderThatCannotBeWrittenIsAFailureWithItsReason() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString)")
        #expect(throws: ImageFileWriter.Failure.self) {
            _ = try ImageFileWriter.writeBesideOthers(Data("x".utf8), named: "a.png", in: missing.path)
        }
        #expect(throws: ImageFileWriter.Failure.self) {
            try ImageFileWriter.write(Data("x".utf8), to: missing.appendingPathComponent("a.png").path)
        }
    }
}
