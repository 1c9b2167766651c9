import Foundation
import Testing

@testable import GalleryCore

private func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
        "state-safety-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

private func image(_ id: String) -> GalleryImage {
    GalleryImage(id: ImageID(id), url: "https://e.org/\(id).png", aspectRatio: 1)
}

private func loaded(_ result: StateStore.LoadResult) -> GalleryState? {
    if case .loaded(let state) = result { return state }
    return nil
}

@Suite struct StateFileSafetyTests {
    @Test func unknownFieldsRoundTripAtEveryLevel() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("state.json")
        try Data(
            """
            {"version":1,"notes":"mine","future":{"a":[1,true,null]},
             "galleries":[{"id":"g","name":"G","colour":"teal","images":[
                {"id":"i","url":"https://e.org/i.png","aspectRatio":1.5,"rating":5,"tags":["cat"]}]}]}
            """.utf8
        ).write(to: file)
        let store = StateStore(fileURL: file)
        var state = try #require(loaded(store.load()))
        #expect(state.unknownFields["notes"] == RawJSON(.string("mine")))
        // An edit, then a save: what this version does not know is still there.
        state.galleries[0].name = "Renamed"
        try store.save(state)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        #expect(json["notes"] as? String == "mine")
        #expect((json["future"] as? [String: Any])?["a"] != nil)
        let gallery = try #require((json["galleries"] as? [[String: Any]])?.first)
        #expect(gallery["colour"] as? String == "teal")
        #expect(gallery["name"] as? String == "Renamed")
        let saved = try #require((gallery["images"] as? [[String: Any]])?.first)
        #expect(saved["rating"] as? Double == 5)
        #expect(saved["tags"] as? [String] == ["cat"])
        #expect(try #require(loaded(store.load())) == state)
    }

    @Test func aSymlinkedFileIsWrittenThroughToItsTarget() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let dotfiles = directory.appendingPathComponent("dotfiles", isDirectory: true)
        try FileManager.default.createDirectory(at: dotfiles, withIntermediateDirectories: true)
        let target = dotfiles.appendingPathComponent("gallery-state.json")
        let link = directory.appendingPathComponent("state.json")
        let store = StateStore(fileURL: link)
        try StateStore(fileURL: target).save(GalleryState(galleries: [Gallery(id: "g", name: "Old")]))
        try FileManager.default.createSymbolicLink(
            atPath: link.path, withDestinationPath: "dotfiles/gallery-state.json")
        try store.save(GalleryState(galleries: [Gallery(id: "g", name: "New")]))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "dotfiles/gallery-state.json")
        #expect(loaded(StateStore(fileURL: target).load())?.galleries[0].name == "New")
        #expect(loaded(store.load())?.galleries[0].name == "New")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dotfiles.path) == ["gallery-state.json"])
    }

    @Test func theFileKeepsItsMode() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("state.json")
        let store = StateStore(fileURL: file)
        try store.save(.initial)
        // New: private to the user. Existing: a mode someone chose is kept, wider or narrower.
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o600)
        for mode in [0o644, 0o000, 0o640] {
            chmod(file.path, mode_t(mode))
            try store.save(GalleryState(galleries: [Gallery(name: "mode \(mode)")]))
            #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == mode)
        }
    }

    @Test func newFoldersArePrivateAndExistingOnesKeepTheirMode() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        chmod(directory.path, 0o755)
        let file = directory.appendingPathComponent("data/image-gallery/state.json")
        try StateStore(fileURL: file).save(.initial)
        for folder in ["data", "data/image-gallery"] {
            let path = directory.appendingPathComponent(folder).path
            #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o700)
        }
        #expect(try FileManager.default.attributesOfItem(atPath: directory.path)[.posixPermissions] as? Int == 0o755)
    }

    @Test func staleTemporaryFilesAreRemovedAndFreshOnesKept() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = StateStore(fileURL: directory.appendingPathComponent("state.json"))
        try store.save(.initial)
        let old = directory.appendingPathComponent(".state.json.0A1B.tmp")
        let fresh = directory.appendingPathComponent(".state.json.FFFF.tmp")
        let unrelated = directory.appendingPathComponent(".other.json.0A1B.tmp")
        for file in [old, fresh, unrelated] { try Data(count: 1000).write(to: file) }
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: old.path)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: unrelated.path)
        #expect(store.removeStaleTemporaryFiles(olderThan: Date(timeIntervalSinceNow: -60)) == 1)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
                == [".other.json.0A1B.tmp", ".state.json.FFFF.tmp", "state.json"])
    }

    // MARK: Two writers

    @Test func mergeTakesEachSidesOwnChanges() {
        let base = GalleryState(galleries: [
            Gallery(id: "g", name: "G", images: [image("a"), image("b")]),
            Gallery(id: "k", name: "K", images: [image("k1")]),
            Gallery(id: "d", name: "D", images: [image("d1")]),
        ])
        var theirs = base
        theirs.galleries[0].name = "Renamed by them"
        theirs.galleries[0].images.append(image("t"))
        theirs.galleries.remove(at: 2)  // they deleted D, which we did not touch
        theirs.galleries.insert(Gallery(id: "n", name: "New", images: []), at: 1)
        var ours = base
        ours.galleries[0].images.insert(image("o"), at: 0)
        ours.galleries[1].name = "K by us"
        ours.galleries.remove(at: 1)  // we deleted K, which they did not touch
        let merged = GalleryState.merged(base: base, theirs: theirs, ours: ours)
        #expect(merged.galleries.map(\.id) == ["g", "n"])
        #expect(merged.galleries[0].name == "Renamed by them")
        #expect(merged.galleries[0].images.map(\.id.rawValue) == ["o", "a", "b", "t"])
    }

    @Test func aGalleryDeletedOnOneSideButChangedOnTheOtherIsKept() {
        let base = GalleryState(galleries: [
            Gallery(id: "g", name: "G"), Gallery(id: "k", name: "K", images: [image("k1")]),
        ])
        var theirs = base
        theirs.galleries.remove(at: 1)
        var ours = base
        ours.galleries[1].images.append(image("k2"))
        #expect(GalleryState.merged(base: base, theirs: theirs, ours: ours).galleries.map(\.id) == ["g", "k"])
        // And the other way round.
        #expect(GalleryState.merged(base: base, theirs: ours, ours: theirs).galleries.map(\.id) == ["g", "k"])
    }

    @MainActor @Test func theLibraryAdoptsAMergeKeepingItsOwnLaterChangesAndPlaceholders() throws {
        let ours = GalleryState(galleries: [Gallery(id: "g", name: "G", images: [image("a"), image("b")])])
        let library = GalleryLibrary(state: ours)
        let placeholder = try #require(library.insertPlaceholder(in: "g", at: 1, label: "slow"))
        library.move([ImageID("b")], in: "g", toInsertionIndex: 0)  // after the save that met the other copy's file
        var merged = ours
        merged.galleries[0].images.append(image("x"))
        merged.galleries.append(Gallery(id: "h", name: "H"))
        library.adoptMerge(merged, over: ours)
        #expect(library.galleries.map(\.id) == ["g", "h"])
        #expect(library.cells(of: "g").filter { !$0.isPlaceholder }.map(\.id.rawValue) == ["b", "a", "x"])
        #expect(library.cells(of: "g").contains { $0.id == placeholder })
        #expect(!library.history.canUndo)
        #expect(library.fulfillPlaceholder(placeholder, with: image("p")) == "g")
    }

    @MainActor @Test func anUndoStepStaysWhenWhatCameInLeftItsGalleryAlone() throws {
        let ours = GalleryState(galleries: [
            Gallery(id: "g", name: "G", images: [image("a"), image("b")]), Gallery(id: "k", name: "K"),
        ])
        let library = GalleryLibrary(state: ours)
        library.move([ImageID("b")], in: "g", toInsertionIndex: 0)
        let saved = library.state
        var merged = saved
        merged.galleries[1].images.append(image("k1"))  // another computer's add, in K
        library.adoptMerge(merged, over: saved)
        #expect(library.cells(of: "k").map(\.id.rawValue) == ["k1"])
        #expect(library.history.canUndo)
        library.undo()
        #expect(library.cells(of: "g").map(\.id.rawValue) == ["a", "b"])
        #expect(library.cells(of: "k").map(\.id.rawValue) == ["k1"])
        // What comes in to the gallery a step names ends the history: its places may have moved.
        library.redo()
        var touching = library.state
        touching.galleries[0].images.append(image("x"))
        library.adoptMerge(touching, over: library.state)
        #expect(!library.history.canUndo && !library.history.canRedo)
    }

    @MainActor @Test func theRestOfALibraryReadShownGalleryFirstIsSwappedInWithTheWindowsEditsKept() throws {
        // A launch that read G first: K is listed and counted, its images still to come.
        let shown = GalleryState(galleries: [
            Gallery(id: "g", name: "G", images: [image("a"), image("b")]), Gallery(id: "k", name: "K"),
        ])
        for editsAfterSave in [false, true] {
            let library = GalleryLibrary(prepared: GalleryLibrary.Prepared(shown, unreadCounts: ["k": 2]))
            #expect(library.imageCount(of: "k") == 2 && library.imageCount(of: "g") == 2)
            let placeholder = try #require(library.insertPlaceholder(in: "g", at: 2, label: "slow"))
            library.move([ImageID("b")], in: "g", toInsertionIndex: 0)
            let saved = library.state
            // Edited again after the save the rest answers: the rest is merged in, as another computer's edits are.
            if editsAfterSave { library.move([ImageID("a")], in: "g", toInsertionIndex: 0) }
            var whole = saved
            whole.galleries[1].images = [image("k1"), image("k2")]
            library.adoptRest(whole, prepared: GalleryLibrary.Prepared(whole), over: saved)
            #expect(library.cells(of: "k").map(\.id.rawValue) == ["k1", "k2"])
            let order = library.cells(of: "g").filter { !$0.isPlaceholder }.map(\.id.rawValue)
            #expect(order == (editsAfterSave ? ["a", "b"] : ["b", "a"]))
            #expect(library.cells(of: "g").contains { $0.id == placeholder })
            #expect(library.history.canUndo)
            #expect(library.fulfillPlaceholder(placeholder, with: image("p")) == "g")
            #expect(library.imageCount(of: "k") == 2)
        }
    }
}

@Suite struct TwoWritersTests {
    @Test func fieldsAndSettingsOnlyTheyChangedComeFromThem() {
        var base = GalleryState(galleries: [Gallery(id: "g", name: "G", images: [image("a"), image("b"), image("c")])])
        base.unknownFields = ["notes": RawJSON(.string("old"))]
        var theirs = base
        theirs.unknownFields["notes"] = RawJSON(.string("theirs"))
        theirs.sidebarVisible = false
        theirs.galleries[0].images.reverse()
        var ours = base
        ours.galleries[0].images.append(image("d"))
        let merged = GalleryState.merged(base: base, theirs: theirs, ours: ours)
        #expect(merged.unknownFields["notes"] == RawJSON(.string("theirs")))
        #expect(merged.sidebarVisible == false)
        #expect(merged.galleries[0].images.map(\.id.rawValue) == ["c", "b", "a", "d"])
    }

    // MARK: Merging orders

    private func gallery(_ ids: String) -> GalleryState {
        GalleryState(galleries: [
            Gallery(id: "g", name: "G", images: ids.split(separator: " ").map { image(String($0)) })
        ])
    }

    /// The merged order, made by each side in turn: both must agree.
    private func mergedOrder(base: String, _ one: String, _ other: String) -> String {
        let merged = GalleryState.merged(base: gallery(base), theirs: gallery(one), ours: gallery(other))
        let converse = GalleryState.merged(base: gallery(base), theirs: gallery(other), ours: gallery(one))
        #expect(merged == converse, "the two sides merge differently")
        return merged.galleries[0].images.map(\.id.rawValue).joined(separator: " ")
    }

    @Test func reordersOfDifferentImagesOnBothSidesAreBothKept() {
        // One copy moves a after c, the other f to the front.
        #expect(mergedOrder(base: "a b c d e f", "b c a d e f", "f a b c d e") == "f b c a d e")
        // One moves b to the end, the other e to the start.
        #expect(mergedOrder(base: "a b c d e", "a c d e b", "e a b c d") == "e a c d b")
    }

    @Test func addsAndDeletesOnBothSidesAreKeptBesideTheMoves() {
        // Ours: b deleted, x added after c, d moved first. Theirs: y added between c and d.
        #expect(mergedOrder(base: "a b c d", "d a c x", "a b c y d") == "d a c x y")
        // Both delete, both append.
        #expect(mergedOrder(base: "a b c d", "a c d x", "a b d y") == "a d x y")
    }

    @Test func anImageMovedOnBothSidesEndsWhereOneSidePutIt() {
        let merged = mergedOrder(base: "a b c d", "d a b c", "a d b c")
        #expect(["d a b c", "a d b c"].contains(merged))
    }

    @Test func randomEditsOnBothSidesMergeTheSameEitherWayAndLoseNothing() {
        var random = SplitMix64(seed: 30)
        for round in 0..<300 {
            let base = (0..<Int.random(in: 0...10, using: &random)).map { "b\($0)" }
            func edited(_ name: String) -> [String] {
                var ids = base
                for step in 0..<Int.random(in: 0...3, using: &random) {
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0 where !ids.isEmpty:
                        let moved = ids.remove(at: Int.random(in: ids.indices, using: &random))
                        ids.insert(moved, at: Int.random(in: 0...ids.count, using: &random))
                    case 1 where !ids.isEmpty: ids.remove(at: Int.random(in: ids.indices, using: &random))
                    default: ids.insert("\(name)\(step)", at: Int.random(in: 0...ids.count, using: &random))
                    }
                }
                return ids
            }
            let one = edited("x")
            let other = edited("y")
            let merged = mergedOrder(
                base: base.joined(separator: " "), one.joined(separator: " "), other.joined(separator: " ")
            ).split(separator: " ").map(String.init)
            let expected = Set(one).intersection(other).union(Set(one).union(other).subtracting(base))
            #expect(Set(merged) == expected && merged.count == expected.count, "round \(round)")
        }
    }
}
