import Foundation
import Testing

@testable import GalleryCore

private func entry(_ counter: UInt64, note: String) -> JournalEntry {
    JournalEntry(
        stamp: JournalStamp(counter: counter, computer: "alpha"),
        changes: [.setImageField(ImageID("i"), name: "note", value: RawJSON(.string(note)))])
}

/// A library folder of its own, removed after the test.
private func withLibrary(_ body: (URL, LibraryFolder) throws -> Void) throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(RandomID.make())")
    defer { try? FileManager.default.removeItem(at: url) }
    try body(url, try LibraryFolder.open(url, creating: true))
}

@Suite("This computer's log on the disk")
struct JournalLogFileTests {
    @Test func appendedEntriesAreReadAtTheNextOpening() throws {
        try withLibrary { url, library in
            let (file, read) = try JournalLogFile.open(in: library, computer: "alpha")
            #expect(read.entries.isEmpty)
            try file.append([entry(2, note: "one")])
            try file.append([entry(3, note: "two"), entry(4, note: "three")])
            let (_, again) = try JournalLogFile.open(in: library, computer: "alpha")
            #expect(again.entries == [entry(2, note: "one"), entry(3, note: "two"), entry(4, note: "three")])
            let mode = try FileManager.default.attributesOfItem(
                atPath: url.appendingPathComponent("journal/alpha.log").path)[.posixPermissions]
            #expect(mode as? Int == 0o600)
        }
    }

    @Test func anOpeningReturnsTheEntriesPastWhatASnapshotCovers() throws {
        try withLibrary { url, library in
            let (file, _) = try JournalLogFile.open(in: library, computer: "alpha")
            let covered = try file.append([entry(2, note: "one"), entry(3, note: "two")])
            let end = try file.append([entry(4, note: "three")])
            let (_, read) = try JournalLogFile.open(in: library, computer: "alpha", covered: covered)
            #expect(read.entries == [entry(4, note: "three")] && read.end == end)
        }
    }

    @Test func whatASnapshotCoversIsCheckedASliceAtATimeEvenPastRecordsLongerThanASlice() throws {
        try withLibrary { url, library in
            let path = url.appendingPathComponent("journal/alpha.log").path
            let (file, _) = try JournalLogFile.open(in: library, computer: "alpha")
            // Records of all sizes, one longer than a slice, so that records straddle every slice's end.
            var offsets: [Int] = []
            for counter in 2..<40 {
                let note = String(
                    repeating: "n", count: counter == 20 ? JournalLog.slice * 3 / 2 : counter * 9_973)
                offsets.append(try file.append([entry(UInt64(counter), note: note)]))
            }
            let end = try file.append([entry(40, note: "last")])
            #expect(end > JournalLog.slice * 3)
            for (index, covered) in offsets.enumerated() where index % 7 == 3 || index == 18 || index == 19 {
                let (_, read) = try JournalLogFile.open(in: library, computer: "alpha", covered: covered)
                #expect(read.entries.map(\.stamp.counter) == Array(UInt64(index + 3)...40) && read.end == end)
            }
            // A covered offset inside a record covers nothing: every entry is read.
            let (_, whole) = try JournalLogFile.open(in: library, computer: "alpha", covered: offsets[25] + 5)
            #expect(whole.entries.count == 39 && whole.end == end)
            // A changed byte in the third slice, well before what the snapshot covers, is still found.
            var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            let damaged = JournalLog.slice * 2 + 1_000
            bytes[damaged] = bytes[damaged] == UInt8(ascii: "n") ? UInt8(ascii: "m") : UInt8(ascii: "n")
            try bytes.write(to: URL(fileURLWithPath: path))
            #expect(throws: JournalLogFile.Failure.damaged) {
                try JournalLogFile.open(in: library, computer: "alpha", covered: offsets[36])
            }
        }
    }

    @Test func aRecordCutByACrashIsCutOffAndTheNextAppendIsRead() throws {
        try withLibrary { url, library in
            let path = url.appendingPathComponent("journal/alpha.log").path
            let (file, _) = try JournalLogFile.open(in: library, computer: "alpha")
            try file.append([entry(2, note: "kept")])
            let whole = try Data(contentsOf: URL(fileURLWithPath: path))
            let cut = JournalLog.record(entry(3, note: "cut")).prefix(20)
            try (whole + cut).write(to: URL(fileURLWithPath: path))
            let (reopened, read) = try JournalLogFile.open(in: library, computer: "alpha")
            #expect(read.entries == [entry(2, note: "kept")] && read.stop == .cut)
            try reopened.append([entry(4, note: "after")])
            let (_, again) = try JournalLogFile.open(in: library, computer: "alpha")
            #expect(again.entries == [entry(2, note: "kept"), entry(4, note: "after")] && again.stop == nil)
        }
    }

    @Test func aDamagedLogTakesNoMoreAppends() throws {
        try withLibrary { url, library in
            let (file, _) = try JournalLogFile.open(in: library, computer: "alpha")
            try file.append([entry(2, note: "one"), entry(3, note: "two")])
            let path = url.appendingPathComponent("journal/alpha.log")
            var bytes = try Data(contentsOf: path)
            bytes[25] ^= 0x01
            try bytes.write(to: path)
            #expect(throws: JournalLogFile.Failure.damaged) { try JournalLogFile.open(in: library, computer: "alpha") }
        }
    }

    @Test func aLogPastTheLimitIsNotOpened() throws {
        try withLibrary { url, library in
            let (file, _) = try JournalLogFile.open(in: library, computer: "alpha")
            let size = try file.append([entry(2, note: "one"), entry(3, note: "two")])
            #expect(throws: JournalLogFile.Failure.tooLarge) {
                try JournalLogFile.open(in: library, computer: "alpha", limit: size - 1)
            }
            let (_, read) = try JournalLogFile.open(in: library, computer: "alpha", limit: size)
            #expect(read.entries.count == 2)
        }
    }

    @Test func aLinkInTheFolderLeadsNowhere() throws {
        try withLibrary { url, library in
            let outside = url.appendingPathComponent("outside")
            try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                at: url.appendingPathComponent("journal"), withDestinationURL: outside)
            do {
                _ = try JournalLogFile.open(in: library, computer: "alpha")
                Issue.record("a log opened through a linked folder")
            } catch JournalLogFile.Failure.failed(let error) {
                #expect(error.code == ELOOP)
            } catch {
                Issue.record("\(error)")
            }
            try FileManager.default.removeItem(at: url.appendingPathComponent("journal"))
            try FileManager.default.createDirectory(
                at: url.appendingPathComponent("journal"), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                at: url.appendingPathComponent("journal/alpha.log"),
                withDestinationURL: outside.appendingPathComponent("log"))
            #expect(throws: (any Error).self) { try JournalLogFile.open(in: library, computer: "alpha") }
            #expect(!FileManager.default.fileExists(atPath: outside.appendingPathComponent("log").path))
            #expect(throws: (any Error).self) { try JournalLogFile.open(in: library, computer: "../alpha") }
        }
    }
}
