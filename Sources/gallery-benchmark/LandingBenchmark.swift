import Foundation
import GalleryCore

/// `gallery-benchmark landing [gallery size] [arrivals] [per pass] [runs]`: what images landing in a gallery cost the
/// GTK thread's core (the library, a window's session showing the gallery, the search index, the saver's last state
/// given what landed; not the view's layout, which the app's benchmark measures): a drop of that many images (default 2,000) at
/// the end of a gallery of that many search-library images (default 50,000; 0 for an empty one), its placeholders
/// put in at once and one undo step, its images arriving `per pass` at a time (default 1, each download's own pass of
/// the main loop). Printed: the processor time of this thread for the placeholders and for all the arrivals, median
/// and range of the runs (default 3).
@MainActor func measureLanding(gallerySize: Int, arrivals: Int, perPass: Int, runs: Int) {
    var placing: [Double] = []
    var landing: [Double] = []
    for _ in 0..<runs {
        let library = makeSearchLibrary(
            count: gallerySize, galleries: 1, ratios: (0..<gallerySize).map { 0.4 + Double($0 % 22) / 10 })
        var landedCount = 0
        // As the app's saver is given them: what landed, not the library.
        library.onLanded = {
            landedCount += $1.count
            return true
        }
        let session = GallerySession(library: library, galleryID: "g0")
        let index = SearchIndex(library: library)
        let images = (0..<arrivals).map { number in
            var image = GalleryImage(
                url: "https://cdn\(number % 97).example.org/landed/\(number).jpg",
                aspectRatio: 0.5 + Double(number % 17) / 10)
            image.origin = ImageOrigin(added: "2026-11-29T06:00:00Z", page: "https://blog.example.com/\(number)")
            return image
        }
        var placeholders: [ImageID] = []
        placing.append(
            threadMilliseconds {
                placeholders = library.insertPlaceholders(in: "g0", labels: images.map(\.label)) ?? []
                library.groupArrivals(placeholders)
            })
        landing.append(
            threadMilliseconds {
                var start = 0
                while start < arrivals {
                    let end = min(start + perPass, arrivals)
                    landPass(library, Array(zip(placeholders[start..<end], images[start..<end])))
                    start = end
                }
            })
        precondition(library.imageCount(of: "g0") == gallerySize + arrivals && landedCount == arrivals)
        precondition(
            library.history.undoName != nil && index.corpus.sections[0].entries.count == gallerySize + arrivals)
        withExtendedLifetime(session) {}
    }
    func summary(_ samples: [Double]) -> String {
        let sorted = samples.sorted()
        return String(format: "%.1f ms (%.1f–%.1f)", sorted[sorted.count / 2], sorted[0], sorted[sorted.count - 1])
    }
    print(
        "landing: \(arrivals) images, \(perPass) a pass, into a gallery of \(gallerySize): placeholders "
            + "\(summary(placing)), arrivals \(summary(landing)) of this thread's processor time, \(runs) runs")
}

/// One pass of the main loop's arrivals: what callgrind counts.
@MainActor @inline(never) func landPass(_ library: GalleryLibrary, _ arrived: [(ImageID, GalleryImage)]) {
    library.fulfillPlaceholders(arrived.map { (placeholder: $0.0, image: $0.1) })
}

/// This thread's processor time during `body`, in milliseconds.
@MainActor func threadMilliseconds(_ body: () -> Void) -> Double {
    func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1e3 + Double(time.tv_nsec) / 1e6
    }
    let start = now()
    body()
    return now() - start
}
