import Foundation
import GLibKit
import GalleryCore
import GalleryIO
import GtkKit

/// Check Library (the main menu): checks every kept original in the background (LibraryCheck), shows how far
/// it got with Cancel in the window it was started from, and sums up what it found in that window's toast.
@MainActor
final class LibraryChecker {
    private let library: GalleryLibrary
    private let source: ImageBytesSource
    private var check: LibraryCheck?
    private weak var window: MainWindow?

    init(library: GalleryLibrary, source: ImageBytesSource) {
        self.library = library
        self.source = source
    }

    /// Starts a check shown in `window`; a check already running is only shown again.
    func start(in window: MainWindow) {
        guard check == nil else {
            window.say(tr("The library is being checked already"))
            return
        }
        let items = LibraryCheck.items(of: library.state.galleries.flatMap(\.images))
        self.window = window
        window.checkBanner.onCancel = { [weak self] in self?.check?.cancel() }
        window.checkBanner.begin(tr("Checking the library…"), total: items.count)
        let check = LibraryCheck(
            items, source: source,
            progress: { done, total in
                MainContext.post { [weak self] in self?.window?.checkBanner.update(done: done, total: total) }
            },
            completion: { report in MainContext.post { [weak self] in self?.finished(report) } })
        self.check = check
        check.start()
    }

    private func finished(_ report: LibraryCheck.Report) {
        check = nil
        window?.checkBanner.end()
        window?.say(Self.summary(of: report), seconds: nil)
    }

    /// What the check found, in a few sentences naming the images that need the user.
    static func summary(of report: LibraryCheck.Report) -> String {
        if report.isCancelled { return tr("Check Library cancelled") }
        let repaired = report.labels {
            if case .repaired = $0 { true } else { false }
        }
        let changed = report.labels {
            if case .sourceChanged = $0 { true } else { false }
        }
        let lost = report.labels {
            if case .lost = $0 { true } else { false }
        }
        if repaired.isEmpty && changed.isEmpty && lost.isEmpty {
            return trPlural(
                "The {count} image in the library is intact", "All {count} images in the library are intact",
                report.items.count)
        }
        var sentences: [String] = []
        if !repaired.isEmpty {
            sentences.append(
                trPlural(
                    "{count} image was missing or damaged and was fetched again from its source: {names}.",
                    "{count} images were missing or damaged and were fetched again from their sources: {names}.",
                    repaired.count, ["names": names(repaired)]))
        }
        if !lost.isEmpty {
            let reason = report.findings.lazy.compactMap { finding -> String? in
                if case .lost(_, let reason) = finding { reason } else { nil }
            }.first
            sentences.append(
                trPlural(
                    "{count} image could not be repaired: {names} ({reason}).",
                    "{count} images could not be repaired: {names} (first: {reason}).",
                    lost.count, ["names": names(lost), "reason": reason ?? ""]))
        }
        if !changed.isEmpty {
            sentences.append(
                trPlural(
                    "{count} image could not be repaired, its source now sends a different image: {names}.",
                    "{count} images could not be repaired, their sources now send different images: {names}.",
                    changed.count, ["names": names(changed)]))
        }
        return sentences.joined(separator: " ")
    }

    /// The first few labels, quoted; the count says how many there are in all.
    private static func names(_ labels: [String]) -> String {
        let shown = labels.prefix(5).map { "“\($0)”" }.joined(separator: ", ")
        return labels.count > 5 ? shown + ", …" : shown
    }
}
