import CShim
import Foundation
import GalleryCore

/// The live likeness index over a library of `count` images in ten galleries (random fingerprints, a twentieth of
/// them near copies): the bytes it allocates an image, as malloc counts them before and after its build, with the
/// palettes' eight bytes each in the search entries and the blocks of them a colour search reads (`PaletteBlocks`,
/// built here as the search entries build them); its build at the first look-up; and the change it takes up in place
/// when an image is added, deleted or merged, seven of each.
@MainActor func measureLiveLikenessIndex(values: [UInt64]) {
    let palette = Palette(rawValue: 0xF000_0000_0000_0000)!
    let share = values.count / 10 + 1
    let galleries = (0..<10).map { number in
        Gallery(
            id: "gallery-\(number)", name: "Gallery \(number)",
            images: values.dropFirst(number * share).prefix(share).enumerated().map { offset, value in
                var image = GalleryImage(
                    id: ImageID("image-\(number)-\(offset)"), url: "https://example.org/\(number)/\(offset).png",
                    aspectRatio: 1)
                image.likeness = Likeness(fingerprint: Fingerprint(rawValue: value), palette: palette)
                return image
            })
    }
    let library = GalleryLibrary(state: GalleryState(galleries: galleries))
    // The workers' time on the CPU: the machine is shared, and its wall time is many times that when it is busy.
    var workTimes: [Duration] = []
    let index = LikenessIndex(library: library) { work, then in
        workTimes.append(ThreadProcessorClock().measure(work))
        then()
    }
    let before = cshim_allocated_bytes()
    index.build()
    let blocks = galleries.map { gallery in
        var blocks = PaletteBlocks()
        blocks.reserveCapacity(adding: gallery.images.count)
        for image in gallery.images { blocks.append(image.likeness?.palette.rawValue ?? 0) }
        return blocks
    }
    let after = cshim_allocated_bytes()
    withExtendedLifetime(blocks) {}
    let bytes = Double(Int(after) - Int(before)) / Double(values.count) + Double(MemoryLayout<Palette>.size)
    print(
        String(
            format: "live index: %.1f bytes an image allocated (malloc's count before and after its build, palettes' 8 "
                + "in the search entries and their blocks included); built in %.1f ms of CPU", bytes,
            milliseconds(workTimes[0])))
    var added: [Duration] = []
    var removed: [Duration] = []
    var merged: [Duration] = []
    var random = SystemRandomNumberGenerator()
    for round in 0..<7 {
        let galleryID = "gallery-\(round)"
        var image = GalleryImage(url: "https://example.org/new/\(round).png", aspectRatio: 1)
        image.likeness = Likeness(
            fingerprint: Fingerprint(rawValue: UInt64.random(in: 0...UInt64.max, using: &random)), palette: palette)
        let placeholder = library.insertPlaceholder(in: galleryID, at: share / 2, label: "new")!
        workTimes = []
        library.fulfillPlaceholder(placeholder, with: image)
        added.append(workTimes.reduce(.zero, +))
        let cells = library.cells(of: galleryID)
        workTimes = []
        _ = library.remove([cells[share / 3].id], from: galleryID)
        removed.append(workTimes.reduce(.zero, +))
        workTimes = []
        library.merge([DuplicateMerge(kept: cells[10].id, merged: [cells[share / 4].id])])
        merged.append(workTimes.reduce(.zero, +))
    }
    for (name, samples) in [("an image added", added), ("one deleted", removed), ("one merged", merged)] {
        let sorted = samples.sorted()
        print(
            String(
                format: "live index changed in place, %@: median %.2f ms of CPU, range %.2f–%.2f ms", name as NSString,
                milliseconds(sorted[3]), milliseconds(sorted[0]),
                milliseconds(sorted[6])))
    }
    precondition(index.buildCount == 1)
}

private func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
}
