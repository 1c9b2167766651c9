import Foundation
import GalleryCore
import Synchronization

/// The addresses on the user's own network or machine (`AddressScope`) that this computer's user added or chose to
/// load, for a library in a folder the user chose: a sync tool brings in what other people add, and what their
/// addresses name here (a router's page, a printer, a service on this machine) is fetched only once the user here says
/// so. Kept in a small file of this computer's own (its state folder), never in the library, so that no other computer
/// can write an approval.
public final class LocalAddressApprovals: Sendable {
    private struct Approved {
        /// Read from the record at the first question.
        var kept: Set<String>?
        /// Addresses of public names this session's drops fetched: their host may still be one of the user's own.
        var thisSession: Set<String> = []
    }

    private let record: URL
    private let scheduler: JobScheduler
    private let approved = Mutex(Approved())
    /// Held while the record is written: the last write holds every approval, whichever job runs last.
    private let writing = Mutex(())

    /// The largest record read: a few thousand addresses.
    private static let recordLimit = 4 * 1024 * 1024

    public init(record: URL, scheduler: JobScheduler) {
        self.record = record
        self.scheduler = scheduler
    }

    /// Whether fetching `url` waits for the user's word: an http(s) address whose host, as written, is on the local
    /// network or this machine, which nobody here added or approved.
    public func needsApproval(_ url: String) -> Bool {
        guard let scope = AddressScope.ofWebAddress(url), scope != .publicInternet else { return false }
        return !isApproved(url)
    }

    /// Whether the user here added or approved `url`: its transfer may reach the local network.
    public func isApproved(_ url: String) -> Bool {
        withApproved { $0.kept?.contains(url) == true || $0.thisSession.contains(url) }
    }

    /// Records `urls` as the user's own: those on the local network by name in the record (written on the I/O
    /// lane), the others for this session (a public name may still lead to one of the user's own machines).
    public func approve(_ urls: some Sequence<String>) {
        let changed = withApproved { approved in
            var changed = false
            for url in urls {
                guard let scope = AddressScope.ofWebAddress(url) else { continue }
                if scope == .publicInternet {
                    approved.thisSession.insert(url)
                } else {
                    changed = approved.kept?.insert(url).inserted == true || changed
                }
            }
            return changed
        }
        guard changed else { return }
        scheduler.submit(.io, .visible) { [self] in
            writing.withLock { _ in
                let addresses = withApproved { $0.kept ?? [] }.sorted()
                let data = JSONFile.text(.object(["approved": .array(addresses.map(JSONValue.string))]))
                try? FileWriter.makeFolders(record.deletingLastPathComponent().path)
                try? FileWriter(durability: .flushed, mode: .new(0o600), temporaryName: .hiddenTmp)
                    .write(data, to: record.path, policy: .replace)
            }
        }
    }

    private func withApproved<Result>(_ body: (inout Approved) -> Result) -> Result {
        approved.withLock { approved in
            if approved.kept == nil { approved.kept = readRecord() }
            return body(&approved)
        }
    }

    /// The record's addresses; none when it is missing or unreadable (every local address then waits again).
    private func readRecord() -> Set<String> {
        guard let addresses = JSONFile.read(record.path, limit: Self.recordLimit)?["approved"]?.array else { return [] }
        return Set(addresses.compactMap(\.string))
    }
}
