import CShim
import Foundation
import GalleryCore
import Testing

@testable import GalleryIO

#if canImport(Glibc)
    import Glibc
#endif

/// Reading files someone named: only regular files, never blocking, never past the cap, whatever they report.
@Suite struct FileReaderTests {
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory()
    }

    private func fifo(_ name: String) throws -> String {
        let path = folder.url.appendingPathComponent(name).path
        try #require(mkfifo(path, 0o600) == 0)
        return path
    }

    @Test func aRegularFileIsReadWhole() throws {
        defer { folder.remove() }
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let path = try folder.write(bytes, to: "photo.png")
        #expect(try FileReader.read(path) == Data(bytes))
        #expect(try FileReader.head(path, count: 4) == Data(bytes.prefix(4)))
    }

    @Test func aLargeFileTakesNoMoreMemoryThanItsSizeOnceRead() throws {
        defer { folder.remove() }
        let size = 4 << 20
        let path = try folder.write([UInt8](repeating: 7, count: size), to: "photo.tif")
        let data = try FileReader.read(path)
        #expect(data.count == size)
        // Room for as much again, asked for to learn that the file ended, would stay with the bytes.
        typealias UsableSize = @convention(c) (UnsafeMutableRawPointer?) -> Int
        let usableSize = unsafeBitCast(try #require(dlsym(nil, "malloc_usable_size")), to: UsableSize.self)
        let held = data.withUnsafeBytes { usableSize(UnsafeMutableRawPointer(mutating: $0.baseAddress)) }
        #expect(held < size + size / 8)
    }

    @Test func anEmptyFileIsEmpty() throws {
        defer { folder.remove() }
        let path = try folder.write([], to: "empty.png")
        #expect(try FileReader.read(path) == Data())
    }

    @Test func aFIFOWithoutAWriterIsRefusedAtOnce() throws {
        defer { folder.remove() }
        let path = try fifo("pipe.png")
        #expect(throws: FileReader.Failure.notRegularFile) { try FileReader.read(path) }
        #expect(throws: FileReader.Failure.notRegularFile) { try FileReader.head(path, count: 4096) }
        #expect(FileReader.kind(of: path) == .special)
    }

    @Test func aLinkToAFIFOIsRefused() throws {
        defer { folder.remove() }
        let target = try fifo("pipe")
        let link = folder.url.appendingPathComponent("link.png").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect(throws: FileReader.Failure.notRegularFile) { try FileReader.read(link) }
        #expect(FileReader.kind(of: link) == .special)
    }

    @Test func aDeviceIsRefused() {
        #expect(throws: FileReader.Failure.notRegularFile) { try FileReader.read("/dev/zero") }
        #expect(throws: FileReader.Failure.notRegularFile) { try FileReader.head("/dev/urandom", count: 64) }
        #expect(FileReader.kind(of: "/dev/zero") == .special)
    }

    @Test func aFolderIsRefused() throws {
        defer { folder.remove() }
        #expect(throws: FileReader.Failure.notRegularFile) { try FileReader.read(folder.url.path) }
        #expect(FileReader.kind(of: folder.url.path) == .folder)
    }

    @Test func aMissingFileSaysSo() throws {
        defer { folder.remove() }
        let path = folder.url.appendingPathComponent("gone.png").path
        #expect(throws: FileReader.Failure.missing) { try FileReader.read(path) }
        #expect(throws: FileReader.Failure.missing) { try FileReader.read(path + "/below") }
        #expect(FileReader.kind(of: path) == .missing)
        let real = try folder.write([1], to: "real")
        #expect(throws: FileReader.Failure.missing) { try FileReader.read(real + "\0.png") }
        #expect(FileReader.kind(of: real + "\0.png") == .missing)
    }

    /// /proc files report a size of 0 however much they hold: the bytes are counted as they come.
    @Test func aFileReportingSizeZeroIsReadToItsEndWithinTheCap() throws {
        var status = stat()
        try #require(stat("/proc/self/status", &status) == 0 && status.st_size == 0)
        let whole = try FileReader.read("/proc/self/status")
        #expect(String(decoding: whole, as: UTF8.self).contains("VmRSS"))
        #expect(throws: FileReader.Failure.tooLarge(limit: 100)) {
            try FileReader.read("/proc/self/status", limit: 100)
        }
        #expect(try FileReader.head("/proc/self/status", count: 5) == Data("Name:".utf8))
    }

    /// Reading /proc/self/mem at offset 0 fails with EIO, which Foundation's `readData(ofLength:)` traps on.
    @Test func aReadErrorIsAFailureNotACrash() {
        #expect(throws: FileReader.Failure.unreadable(code: EIO)) { try FileReader.read("/proc/self/mem") }
    }

    @Test func aFileOverTheCapIsRefusedUnread() throws {
        defer { folder.remove() }
        let path = folder.url.appendingPathComponent("huge.png").path
        try #require(FileManager.default.createFile(atPath: path, contents: nil))
        try #require(truncate(path, off_t(FileReader.imageLimit + 1)) == 0)
        #expect(throws: FileReader.Failure.tooLarge(limit: FileReader.imageLimit)) { try FileReader.read(path) }
        #expect(try FileReader.head(path, count: 16) == Data(count: 16))
        let small = try folder.write(Array(repeating: 1, count: 101), to: "small.png")
        #expect(throws: FileReader.Failure.tooLarge(limit: 100)) { try FileReader.read(small, limit: 100) }
        #expect(try FileReader.read(small, limit: 101).count == 101)
    }

    @Test func anUnreadableFileSaysWhy() throws {
        defer { folder.remove() }
        let path = try folder.write([1, 2, 3], to: "private.png")
        try #require(chmod(path, 0) == 0)
        // Root reads any file: as root (CI), this thread checks files as nobody while it reads, which drops the
        // capability to override their permissions.
        let isRoot = getuid() == 0
        if isRoot { _ = cshim_set_file_user(65_534) }
        defer { if isRoot { _ = cshim_set_file_user(0) } }
        #expect(throws: FileReader.Failure.unreadable(code: EACCES)) { try FileReader.read(path) }
    }

    @Test func refusalsSayWhyInWords() {
        #expect(LoadFailure(FileReader.Failure.notRegularFile).description == "not a regular file")
        #expect(LoadFailure(FileReader.Failure.missing).description == "file not found")
        #expect(LoadFailure(FileReader.Failure.tooLarge(limit: 50_000_000)).description == "larger than 50 MB")
        #expect(
            LoadFailure(FileReader.Failure.unreadable(code: EIO)).description
                == "could not be read: Input/output error")
    }
}
