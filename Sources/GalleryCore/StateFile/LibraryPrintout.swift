import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `image-gallery --print-state`: the library as a whole, in the state file's format, for scripts and backups. The
/// state file is read as the app opens it, without its lineage (`Lineage`), and the conflict copies a sync tool left
/// beside it are merged in as the app merges them (`BackgroundStateSaver`): every computer's edits, whatever layout
/// the library has on disk. Nothing is written, moved or locked, so it runs beside the app.
public enum LibraryPrintout {
    public static let option = "--print-state"

    /// Why the library could not be had: a short sentence for the command's error output.
    public struct Failure: Error, Equatable {
        public let message: String
    }

    /// Writes the library to the standard output; returns the exit status, 1 with a message on the error output when
    /// the library could not be read or written out.
    public static func run(_ paths: LibraryPaths) -> Int32 {
        let text: Data
        switch read(paths) {
        case .success(let state): text = StateFileFormat.encode(state)
        case .failure(let failure):
            complain(failure.message)
            return 1
        }
        var rest = text[...]
        while !rest.isEmpty {
            let written = rest.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                let reason = FileError(code: errno).description
                complain(tr("The library could not be written out: {reason}.", ["reason": reason]))
                return 1
            }
            rest = rest.dropFirst(written)
        }
        return 0
    }

    /// The library this computer's settings name (`settings.json`'s `libraryFolder`, else the data folder), with its
    /// conflict copies merged; this computer's kept copies of what it last read and wrote (in a folder a sync tool may
    /// share) tell which state a copy was made from, as they tell the app.
    public static func read(_ paths: LibraryPaths) -> Result<GalleryState, Failure> {
        let store = StateStore.library(paths)
        let kept = paths.location.isShareable ? BackgroundStateSaver.keptCopies(in: paths.computerState) : nil
        return read(store, keptCopies: kept)
    }

    static func read(_ store: StateStore, keptCopies: BackgroundStateSaver.KeptCopies?) -> Result<GalleryState, Failure>
    {
        let folder = store.fileURL.deletingLastPathComponent().path
        let raw: GalleryState
        switch store.read() {
        case .loaded(let state): raw = state
        case .missing: return .failure(Failure(message: tr("There is no library in {folder} yet.", ["folder": folder])))
        case .invalid: return .failure(unreadable(folder, tr("it is not a valid gallery file")))
        case .newer(let version):
            return .failure(
                unreadable(
                    folder,
                    tr("it was written by a newer version (format {format})", ["format": String(version)])))
        case .tooLarge:
            let size = ByteCountFormatter.string(fromByteCount: Int64(StateFileBytes.limit), countStyle: .binary)
            return .failure(
                unreadable(folder, tr("it is larger than {size}, more than any gallery holds", ["size": size])))
        case .failed(let reason):
            return .failure(unreadable(folder, tr("it could not be opened ({reason})", ["reason": reason])))
        }
        let copies = store.conflictCopies()
        guard !copies.isEmpty else { return .success(Lineage.withoutLineage(raw)) }
        return .success(merging(copies, into: raw, keptCopies: keptCopies))
    }

    /// The file's state with each conflict copy merged in, oldest first, against the newest state the copy was made
    /// from that this computer knows (else the oldest it knows), as the app's saver does; a copy the file has taken
    /// in already (the app merged it and is about to remove it) is not merged twice.
    private static func merging(
        _ copies: [URL], into raw: GalleryState, keptCopies: BackgroundStateSaver.KeptCopies?
    ) -> GalleryState {
        let (file, lineage) = Lineage.split(raw)
        var history = Lineage.History()
        for kept in keptCopies?.byAge ?? [] {
            if case .loaded(let copy) = kept.read() {
                let (state, keptLineage) = Lineage.split(copy)
                history.add(Lineage.History.sharingStorage(of: state, with: file), keptLineage)
            }
        }
        history.add(file, lineage)
        var merged = file
        for copy in copies {
            guard let read = StateStore.readCopy(copy) else { continue }  // half written or newer: as the app leaves it
            let (copied, copyLineage) = Lineage.split(read)
            if let copyLineage, lineage?.ancestors.contains(copyLineage.revision) == true { continue }
            let common = history.newest(commonTo: [copyLineage]) ?? history.oldest ?? file
            merged = GalleryState.merged(base: common, theirs: copied, ours: merged)
        }
        return merged
    }

    private static func unreadable(_ folder: String, _ reason: String) -> Failure {
        Failure(
            message: tr("The library in {folder} could not be read: {reason}.", ["folder": folder, "reason": reason]))
    }

    private static func complain(_ message: String) {
        FileHandle.standardError.write(Data("image-gallery: \(message)\n".utf8))
    }
}
