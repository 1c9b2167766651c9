import Foundation
import GLibKit
import GalleryCore
import Synchronization

/// Check Library's work, as background jobs: every kept original read and checked against its SHA-256; one
/// missing or damaged is fetched again from its source (a cached download, else its http(s) address) and
/// written back only when those bytes are the very bytes it is named after.
public final class LibraryCheck: Sendable {
    /// One kept original and where its bytes came from.
    public struct Item: Equatable, Sendable {
        public let sha256: String
        /// The addresses of the images that keep it, tried in this order.
        public let urls: [String]
        /// What the user calls the image, for the summary.
        public let label: String

        public init(sha256: String, urls: [String], label: String) {
            self.sha256 = sha256
            self.urls = urls
            self.label = label
        }
    }

    /// What the check found of one original.
    public enum Finding: Equatable, Sendable {
        case intact
        /// It was missing or damaged, and its source gave its bytes back.
        case repaired(OriginalsStore.Condition)
        /// It is missing or damaged, and its source now gives other bytes: they are not taken for it.
        case sourceChanged(OriginalsStore.Condition)
        /// It is missing or damaged, and no source gave anything (`reason` says why).
        case lost(OriginalsStore.Condition, reason: String)
        /// The check was cancelled before it got to it.
        case unchecked
    }

    /// Every original's finding, in the order of the items.
    public struct Report: Equatable, Sendable {
        public let items: [Item]
        public let findings: [Finding]
        public let isCancelled: Bool

        public func labels(where matches: (Finding) -> Bool) -> [String] {
            zip(items, findings).filter { matches($0.1) }.map(\.0.label)
        }
    }

    private struct State {
        var findings: [Finding]
        var next = 0
        var done = 0
        var lastReport = 0
    }

    /// Originals checked at once: a slow source holds back only its own, and the window's loads keep room.
    private static let itemsAtOnce = 4

    private let items: [Item]
    private let source: ImageBytesSource
    private let state: Mutex<State>
    public let cancellation = CancellationToken()
    private let progress: @Sendable (Int, Int) -> Void
    private let completion: @Sendable (Report) -> Void

    /// `progress` (done, total; at most every 1/20 s, and the last) and `completion` are called on worker threads.
    public init(
        _ items: [Item], source: ImageBytesSource, progress: @escaping @Sendable (Int, Int) -> Void,
        completion: @escaping @Sendable (Report) -> Void
    ) {
        self.items = items
        self.source = source
        self.progress = progress
        self.completion = completion
        state = Mutex(State(findings: Array(repeating: .unchecked, count: items.count)))
    }

    /// The originals `images` keep, each once, in their order.
    public static func items(of images: [GalleryImage]) -> [Item] {
        var order: [String] = []
        var found: [String: (urls: [String], label: String)] = [:]
        for image in images {
            guard let sha256 = image.original?.sha256 else { continue }
            if found[sha256] == nil {
                order.append(sha256)
                found[sha256] = ([], image.label)
            }
            if !found[sha256]!.urls.contains(image.url) { found[sha256]!.urls.append(image.url) }
        }
        return order.map { Item(sha256: $0, urls: found[$0]!.urls, label: found[$0]!.label) }
    }

    public func start() {
        guard !items.isEmpty else { return completion(Report(items: [], findings: [], isCancelled: false)) }
        for _ in 0..<Self.itemsAtOnce { checkNext() }
    }

    public func cancel() { cancellation.cancel() }

    private func checkNext() {
        let position: Int? = state.withLock { state in
            guard state.next < items.count else { return nil }
            defer { state.next += 1 }
            return state.next
        }
        guard let position else { return }
        // Background: what the windows show is loaded first.
        source.scheduler.submit(.io, .background) { [self] in
            guard !cancellation.isCancelled else { return finished(position, .unchecked) }
            let item = items[position]
            let condition = source.originals.condition(of: item.sha256)
            guard condition != .intact else { return finished(position, .intact) }
            refetch(item, condition: condition, urls: item.urls[...], reason: nil) { [self] finding in
                finished(position, finding)
            }
        }
    }

    /// Tries `urls` one after another: the first whose bytes are the original's repairs it; bytes of another
    /// identity are never written under its name.
    private func refetch(
        _ item: Item, condition: OriginalsStore.Condition, urls: ArraySlice<String>, reason: String?,
        sourceChanged: Bool = false, then: @escaping @Sendable (Finding) -> Void
    ) {
        guard let url = urls.first else {
            if sourceChanged { return then(.sourceChanged(condition)) }
            return then(.lost(condition, reason: reason ?? tr("it has no address to fetch it from")))
        }
        let next: @Sendable (Result<Data, LoadFailure>) -> Void = { [self] fetched in
            switch fetched {
            case .success(let data) where Checksum.sha256(data) == item.sha256:
                do throws(FileError) {
                    try source.originals.repair(data, named: item.sha256)
                    then(.repaired(condition))
                } catch {
                    then(.lost(condition, reason: error.description))
                }
            case .success:
                refetch(
                    item, condition: condition, urls: urls.dropFirst(), reason: reason, sourceChanged: true, then: then)
            case .failure where cancellation.isCancelled:
                then(.unchecked)
            case .failure(let failure):
                refetch(
                    item, condition: condition, urls: urls.dropFirst(), reason: reason ?? failure.description,
                    sourceChanged: sourceChanged, then: then)
            }
        }
        // A cached download of the same bytes serves without the network.
        if case .success(let data)? = source.bytesAtHand(for: url), Checksum.sha256(data) == item.sha256 {
            return next(.success(data))
        }
        let scheme = URL(string: url)?.scheme?.lowercased()
        guard scheme == "http" || scheme == "https" else {
            return next(.failure(LoadFailure(description: tr("it has no address to fetch it from"))))
        }
        source.download(
            url, priority: .background, cancellation: cancellation, thenEvenIfCancelled: true, on: .io,
            caching: false, progress: { _, _ in true }, then: { next($0.map(\.data)) })
    }

    private func finished(_ position: Int, _ finding: Finding) {
        let now = MainContext.monotonicMicroseconds
        let (done, due) = state.withLock { state in
            state.findings[position] = finding
            state.done += 1
            let due = now - state.lastReport > 50_000 || state.done == items.count
            if due { state.lastReport = now }
            return (state.done, due)
        }
        if due { progress(done, items.count) }
        if done == items.count {
            let findings = state.withLock { $0.findings }
            completion(Report(items: items, findings: findings, isCancelled: cancellation.isCancelled))
        } else {
            checkNext()
        }
    }
}
