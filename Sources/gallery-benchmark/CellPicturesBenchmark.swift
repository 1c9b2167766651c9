import Foundation
import GLibKit

/// `gallery-benchmark cell-pictures <folder> [count] [runs]`: the processor time of making cells' pictures from the
/// thumbnails (PNG) in `folder`, as the decode thread makes them while scrolling: the file read, then its pixels made
/// into a cell with round corners, at 0.85 of the thumbnail's size (a cell just smaller than the thumbnail that covers
/// it, interpolated) and at 0.52 (just past the next smaller thumbnail's size). The first `count` files by name; each
/// run makes them all again.
func measureCellPictures(folder: String, count: Int, runs: Int) {
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".png") }
    let paths = names.sorted().prefix(count).map { folder + "/" + $0 }
    guard !paths.isEmpty else { return print("no PNG file in \(folder)") }
    let clock = ThreadProcessorClock()
    var pixbufs: [Pixbuf] = []
    print(
        journalSummary(
            "\(paths.count) thumbnails read",
            (0..<runs).map { _ in clock.measure { pixbufs = paths.compactMap { Pixbuf.loadThumbnail(contentsOf: $0) } }
            }))
    for fraction in [0.85, 0.52] {
        let samples = (0..<runs).map { _ in
            clock.measure {
                for pixbuf in pixbufs {
                    withExtendedLifetime(
                        pixbuf.surface(
                            width: max(1, Int(Double(pixbuf.width) * fraction)),
                            height: max(1, Int(Double(pixbuf.height) * fraction)), scale: 1, cornerRadius: 6)
                    ) {}
                }
            }
        }
        print(journalSummary("\(pixbufs.count) cells at \(fraction) of their thumbnail", samples))
    }
}
