import Foundation
import GalleryCore

/// `gallery-benchmark edit-cost [image count] [galleries] [edit name] [repetitions]`: what an edit costs the GTK
/// thread, in its processor time, in a library of that many images (default 1,000,000) in that many galleries (default 200), the search
/// library's images: each edit on one image of a gallery in the middle of the list (a move one place on, a tag, a
/// note, a move to the next gallery, a deletion) and its undo, then each record of a surveyor (an animation summary,
/// a likeness, told where the image stands as the surveyors are), with what the app has listening (a window's session
/// showing that gallery, the saver's last state kept), first without the search index, then with it. Printed: the
/// median and range of each. With an edit's name, only that edit and its undo run, without the index (with it when
/// `withIndex`): count them with `valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*performEdit*'`.
@MainActor func measureEditCost(
    count: Int, galleries galleryCount: Int, only: String?, repetitions: Int, withIndex: Bool = false
) {
    let library = makeSearchLibrary(
        count: count, galleries: galleryCount, ratios: (0..<count).map { 0.4 + Double($0 % 22) / 10 })
    let galleryNumber = galleryCount / 2
    let gallery = "g\(galleryNumber)"
    let next = "g\((galleryNumber + 1) % galleryCount)"
    let image = ImageID("s\(galleryNumber)")
    // The saver keeps the state it was last handed, as the journal's saver keeps the one it diffs the next against.
    var saved: GalleryState?
    library.onSave = { saved = $0 }
    let session = GallerySession(library: library, galleryID: gallery)
    var noteNumber = 0
    let edits: [(String, () -> Void)] = [
        ("move", { library.move([image], in: gallery, toInsertionIndex: 1) }),
        ("tag", { library.addTags(["edit-cost"], to: [image]) }),
        (
            "note",
            {
                noteNumber += 1
                library.setNote("edit cost \(noteNumber)", of: image)
            }
        ),
        ("transfer", { library.transfer([image], from: gallery, to: next, copy: false) }),
        ("delete", { library.remove([image], from: gallery) }),
    ]
    // Records the app's surveyors make, each of another value than the last: no undo step of their own.
    var recordNumber = 0
    // Where the image stands, as the surveyors know from their look through the cells.
    var recordAt = 0
    let records: [(String, () -> Void)] = [
        (
            "animation",
            {
                recordNumber += 1
                let summary = AnimationSummary(frameCount: 2 + recordNumber % 2, duration: 100)
                library.recordAnimations([(image, gallery, recordAt, summary)])
            }
        ),
        (
            "likeness",
            {
                recordNumber += 1
                let likeness = Likeness(
                    fingerprint: Fingerprint(rawValue: UInt64(recordNumber)),
                    palette: Palette(rawValue: 1 << 60 | UInt64(recordNumber % 2))!)
                library.recordLikenesses([(image, gallery, recordAt, likeness)])
            }
        ),
    ]
    // Processor time of this thread, not the wall's: a busy machine stretches the latter, not the former.
    func threadMilliseconds(_ body: () -> Void) -> Double {
        var start = timespec()
        var end = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start)
        body()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &end)
        return Double(end.tv_sec - start.tv_sec) * 1e3 + Double(end.tv_nsec - start.tv_nsec) / 1e6
    }
    func summary(_ samples: [Double]) -> String {
        let sorted = samples.sorted()
        return String(format: "%.3f ms (%.3f–%.3f)", sorted[sorted.count / 2], sorted[0], sorted[sorted.count - 1])
    }
    func run(_ setting: String) {
        for (name, edit) in edits where only == nil || only == name {
            var editSamples: [Double] = []
            var undoSamples: [Double] = []
            for _ in 0..<repetitions {
                editSamples.append(threadMilliseconds { performEdit(edit) })
                undoSamples.append(threadMilliseconds { performEdit { library.undo() } })
            }
            precondition(library.location(of: image)?.galleryID == gallery && saved != nil)
            print(
                "edit-cost: \(count) images in \(galleryCount) galleries, \(setting), \(name): "
                    + "\(summary(editSamples)); its undo: \(summary(undoSamples))")
        }
        recordAt = library.location(of: image)?.index ?? 0
        for (name, record) in records where only == nil || only == name {
            var samples: [Double] = []
            for _ in 0..<repetitions { samples.append(threadMilliseconds { performEdit(record) }) }
            print(
                "edit-cost: \(count) images in \(galleryCount) galleries, \(setting), \(name) recorded: "
                    + summary(samples))
        }
    }
    if only == nil || !withIndex { run("library and a window") }
    guard only == nil || withIndex else { return }
    let index = SearchIndex(library: library)
    run("with the search index")
    withExtendedLifetime((index, session)) {}
}

/// One edit as the GTK thread makes it: what callgrind counts.
@MainActor @inline(never) func performEdit(_ edit: () -> Void) { edit() }
