import Testing

@testable import GalleryCore

/// A log of one computer's edits: every kind of change, one entry each.
private func sampleLog() -> (bytes: [UInt8], entries: [JournalEntry], records: [Int]) {
    var image = GalleryImage(id: ImageID("i1"), url: "https://e.org/cat.png", aspectRatio: 1.5)
    image.origin = ImageOrigin(arrival: .drop, altText: "A “grey” cat\n")
    image.unknownFields["future"] = RawJSON(.object(["n": .number("1e400")]))
    let changes: [[JournalChange]] = [
        [.placeGallery("g", key: "V"), .setGalleryField("g", name: "name", value: RawJSON(.string("Cats")))],
        [.addImage(image), .placeImage(ImageID("i1"), JournalChange.ImagePlacement(gallery: "g", key: "V"))],
        [.setImageField(ImageID("i1"), name: "note", value: RawJSON(.string("For the kitchen wall")))],
        [.setImageField(ImageID("i1"), name: "tags", value: RawJSON(.array([.string("cats/grey")])))],
        [.setImageField(ImageID("i1"), name: "note", value: nil)],
        [.setSetting(name: "sidebarVisible", value: RawJSON(.bool(false)))],
        [.placeImage(ImageID("i1"), nil)],
        [.setGalleryDeleted("g", true)],
    ]
    var bytes: [UInt8] = []
    var records: [Int] = []
    let entries = changes.enumerated().map { index, changes in
        JournalEntry(stamp: JournalStamp(counter: UInt64(index + 2), computer: "alpha"), changes: changes)
    }
    for entry in entries {
        bytes += JournalLog.record(entry)
        records.append(bytes.count)
    }
    return (bytes, entries, records)
}

@Suite("The journal's records")
struct JournalLogTests {
    @Test func entriesComeBackAsWritten() {
        let (bytes, entries, _) = sampleLog()
        let read = JournalLog.read(bytes)
        #expect(read.entries == entries)
        #expect(read.stop == nil && read.skipped == 0 && read.end == bytes.count)
        // One record a line, its JSON readable as it is.
        let lines = bytes.split(separator: 0x0A)
        #expect(lines.count == entries.count)
        #expect(
            String(decoding: lines[2], as: UTF8.self).hasSuffix(
                #"{"at":[4,"alpha"],"changes":[{"image":"i1","set":"note","to":"For the kitchen wall"}]}"#))
    }

    @Test func aWriteCutAtAnyByteLosesOnlyTheEntryItWasWriting() {
        let (bytes, entries, records) = sampleLog()
        for length in 0...bytes.count {
            let read = JournalLog.read(Array(bytes.prefix(length)))
            let whole = records.filter { $0 <= length }.count
            #expect(read.entries == Array(entries.prefix(whole)), "cut at \(length)")
            #expect(read.end == (whole == 0 ? 0 : records[whole - 1]))
            #expect(read.stop == (read.end == length ? nil : .cut), "cut at \(length)")
        }
    }

    @Test func aChangedByteStopsTheReadingAtItsRecord() {
        let (bytes, entries, records) = sampleLog()
        for index in records[4]..<records[5] {
            for flip: UInt8 in [0x01, 0x20, 0x80] {
                var damaged = bytes
                damaged[index] ^= flip
                let read = JournalLog.read(damaged)
                #expect(read.entries == Array(entries.prefix(5)), "byte \(index) ^ \(flip)")
                #expect(read.end == records[4] && read.stop != nil)
            }
        }
    }

    @Test func aReadingFromAnOffsetTakesOnlyTheEntriesAfterIt() {
        let (bytes, entries, records) = sampleLog()
        let read = JournalLog.read(bytes, from: records[5])
        #expect(read.entries == Array(entries.suffix(2)))
    }

    @Test func aReadingDecodesOnlyWhatASnapshotDoesNotCoverButChecksEveryRecord() {
        let (bytes, entries, records) = sampleLog()
        let read = JournalLog.read(bytes, covered: records[5])
        #expect(read.entries == Array(entries.suffix(2)))
        #expect(read.end == bytes.count && read.stop == nil)
        #expect(JournalLog.read(bytes, covered: bytes.count).entries.isEmpty)
        // An offset that is no record's start covers nothing: every entry is taken in again (which changes nothing).
        #expect(JournalLog.read(bytes, covered: records[5] + 3).entries == entries)
        #expect(JournalLog.read(bytes, covered: bytes.count + 100).entries == entries)
        // A damaged record before the covered offset still stops the reading there.
        var damaged = bytes
        damaged[records[1] + 20] ^= 0x01
        let stopped = JournalLog.read(damaged, covered: records[5])
        #expect(stopped.stop == .damaged && stopped.end == records[1])
    }

    @Test func recordsPastTheLimitAreRefusedFromTheirHeader() {
        let claim = Array("00900000 00000000 {".utf8)
        #expect(JournalLog.read(claim).stop == .damaged)
        #expect(JournalLog.read(Array("0000001".utf8)).stop == .cut)
        #expect(JournalLog.read(Array("0000001x".utf8)).stop == .damaged)
    }

    @Test func changesThisVersionCannotTakeAreLeftOutAndTheRestKept() {
        let texts = [
            #"{"at":[3,"bravo"],"changes":[{"image":"i1","set":"note","to":"kept"},{"image":"i1","paint":"red"},"#
                + #"{"image":"i1","set":"id","to":"x"},{"image":"i1","set":"url","to":5},"#
                + #"{"image":"i1","gallery":"g","key":"V0"},{"gallery":"g","set":"name","to":[]},"#
                + #"{"add":{"id":"i2","url":"https://e.org/2.png"}},{"set":"galleries","to":[]}],"next":1}"#,
            #"{"at":[0,"bravo"],"changes":[]}"#,
            #"{"at":[9007199254740993,"bravo"],"changes":[]}"#,
            #"{"at":[3,"../etc"],"changes":[]}"#,
            #"{"at":[3,"bravo"]}"#,
            "not json",
        ]
        let bytes = texts.flatMap { JournalRecord.frame(Array($0.utf8)) }
        let read = JournalLog.read(bytes)
        #expect(read.stop == nil && read.end == bytes.count)
        #expect(
            read.entries == [
                JournalEntry(
                    stamp: JournalStamp(counter: 3, computer: "bravo"),
                    changes: [.setImageField(ImageID("i1"), name: "note", value: RawJSON(.string("kept")))])
            ])
        #expect(read.skipped == 7 + 5)
    }

    @Test func positionKeysAlwaysHaveOneBetweenThem() {
        var random = SplitMix64(seed: 7)
        var keys = PositionKey.evenlySpaced(3)
        #expect(keys == keys.sorted() && Set(keys).count == 3)
        for _ in 0..<2_000 {
            let index = Int.random(in: 0...keys.count, using: &random)
            let low = index > 0 ? keys[index - 1] : nil
            let high = index < keys.count ? keys[index] : nil
            let key = PositionKey.between(low, high)
            #expect(PositionKey.isValid(key))
            #expect(low.map { $0 < key } ?? true && high.map { key < $0 } ?? true, "\(low ?? "") \(key) \(high ?? "")")
            keys.insert(key, at: index)
        }
        let many = PositionKey.keys(10_000, between: "1", "2")
        #expect(many == many.sorted() && Set(many).count == many.count && many.allSatisfy { "1" < $0 && $0 < "2" })
        #expect(many.map(\.utf8.count).max()! <= 5)
        let even = PositionKey.evenlySpaced(100_000)
        #expect(even == even.sorted() && Set(even).count == even.count && even.allSatisfy(PositionKey.isValid))
        #expect(["", "0", "A0", "a b", String(repeating: "z", count: 257)].allSatisfy { !PositionKey.isValid($0) })
    }

    @Test func theLongestIncreasingRunIsFound() {
        #expect(LongestIncreasingSubsequence.indices([3, 0, 1, nil, 4, 2, 5]) == [1, 2, 5, 6])
        #expect(LongestIncreasingSubsequence.indices([]) == [])
        #expect(LongestIncreasingSubsequence.indices([nil, 2, 1]).count == 1)
    }
}

@Suite("A log read a slice at a time")
struct JournalLogSlicesTests {
    /// `JournalLog.read(from:to:covered:slice:fill:)` over `bytes`, filling from them as a file would, never more at
    /// once than `held` (a slice, or the longest record a header claims).
    private func readInSlices(
        _ bytes: [UInt8], from offset: Int, covered: Int, slice: Int, held: Int
    ) -> JournalLog.Read? {
        JournalLog.read(from: offset, to: bytes.count, covered: covered, slice: slice) { buffer, at in
            #expect(buffer.count <= held)
            let count = min(buffer.count, bytes.count - at)
            bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + at, byteCount: count) }
            return count
        }
    }

    private func expectSame(_ sliced: JournalLog.Read?, _ whole: JournalLog.Read, _ what: String) {
        #expect(sliced?.entries == whole.entries, "\(what)")
        #expect(sliced?.end == whole.end && sliced?.stop == whole.stop && sliced?.skipped == whole.skipped, "\(what)")
    }

    @Test func aLogReadInSlicesReadsAsTheWholeOfItWhateverTheSliceTheStartTheCutTheDamageAndTheCoveredOffset() {
        var generator = SplitMix64(seed: 48)
        let (log, _, records) = sampleLog()
        // Records of every length against the slices below: the sample's, one long, then the sample's again.
        let long = JournalLog.record(
            JournalEntry(
                stamp: JournalStamp(counter: 20, computer: "alpha"),
                changes: [
                    .setImageField(
                        ImageID("i1"), name: "note", value: RawJSON(.string(String(repeating: "n", count: 700))))
                ]))
        let bytes = log + long + log
        let starts = [0] + records + records.map { $0 + log.count + long.count } + [log.count + long.count]
        for _ in 0..<300 {
            var damaged = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &generator)))
            let isDamaged = Bool.random(using: &generator) && !damaged.isEmpty
            if isDamaged {
                damaged[Int.random(in: 0..<damaged.count, using: &generator)] ^= 0x01
            }
            let offset = starts.filter { $0 <= damaged.count }.randomElement(using: &generator)!
            let covered =
                Bool.random(using: &generator)
                ? starts.randomElement(using: &generator)! : Int.random(in: 0...bytes.count, using: &generator)
            let slice = [1, 17, 18, 19, 64, 200, 1 << 20].randomElement(using: &generator)!
            let what = "\(damaged.count) bytes from \(offset), covered \(covered), slices of \(slice)"
            let whole = JournalLog.read(damaged, from: offset, covered: max(covered, offset))
            // A changed header may claim a longer record, up to the limit; the sample's records are under 800 bytes.
            let held = max(slice, isDamaged ? JournalRecord.entryLimit + 19 : 800)
            let sliced = readInSlices(damaged, from: offset, covered: max(covered, offset), slice: slice, held: held)
            expectSame(sliced, whole, what)
        }
    }

    @Test func aLogThatCannotBeReadIsNoReading() {
        let (bytes, _, _) = sampleLog()
        // The disk fails a little way in.
        let read = JournalLog.read(from: 0, to: bytes.count, covered: 0, slice: 64) { buffer, at in
            guard at < 100 else { return nil }
            bytes.withUnsafeBytes {
                buffer.baseAddress!.copyMemory(from: $0.baseAddress! + at, byteCount: buffer.count)
            }
            return buffer.count
        }
        #expect(read == nil)
    }
}
