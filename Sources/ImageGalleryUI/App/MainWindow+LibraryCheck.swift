import GalleryCore
import GalleryIO
import GtkKit

/// Check Library, shown in the window it was started from: how far it got with Cancel in a banner, and what it
/// found in the toast.
extension MainWindow {
    func checkLibrary(with checker: LibraryChecker) {
        guard
            let run = checker.start(
                progress: { [weak self] done, total in self?.checkBanner.update(done: done, total: total) },
                completion: { [weak self] report in self?.libraryCheckEnded(report) })
        else {
            say(tr("The library is being checked already"))
            return
        }
        checkBanner.onCancel = run.cancel
        checkBanner.begin(tr("Checking the library…"), total: run.total)
    }

    private func libraryCheckEnded(_ report: LibraryCheck.Report) {
        checkBanner.end()
        say(Self.libraryCheckSummary(of: report), seconds: nil)
    }

    /// What the check found, in a few sentences naming the images that need the user.
    private static func libraryCheckSummary(of report: LibraryCheck.Report) -> String {
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
                    repaired.count, ["names": quoted(repaired)]))
        }
        if !lost.isEmpty {
            let reason = report.findings.lazy.compactMap { finding -> String? in
                if case .lost(_, let reason) = finding { reason } else { nil }
            }.first
            sentences.append(
                trPlural(
                    "{count} image could not be repaired: {names} ({reason}).",
                    "{count} images could not be repaired: {names} (first: {reason}).",
                    lost.count, ["names": quoted(lost), "reason": reason ?? ""]))
        }
        if !changed.isEmpty {
            sentences.append(
                trPlural(
                    "{count} image could not be repaired, its source now sends a different image: {names}.",
                    "{count} images could not be repaired, their sources now send different images: {names}.",
                    changed.count, ["names": quoted(changed)]))
        }
        return sentences.joined(separator: " ")
    }

    /// The first few labels, quoted; the count says how many there are in all.
    private static func quoted(_ labels: [String]) -> String {
        let shown = labels.prefix(5).map { "“\($0)”" }.joined(separator: ", ")
        return labels.count > 5 ? shown + ", …" : shown
    }
}
