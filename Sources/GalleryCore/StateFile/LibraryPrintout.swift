import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `image-gallery --print-state`: the library as a whole, in the state file's format, for scripts and backups: what
/// the library's journal holds (<doc:LibraryJournal>, every computer's log merged), with the folder's `state.json`
/// taken in as a launch would take it in (`StateFileIntake`). Nothing is written, moved or locked, no log is cut back
/// and no id is made, so it runs beside the app.
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

    /// The library this computer's settings name (`settings.json`'s `libraryFolder`, else the data folder).
    public static func read(_ paths: LibraryPaths) -> Result<GalleryState, Failure> {
        read(
            StateFileIntake(paths), library: paths.libraryFolder,
            computer: JournalSaver.existingComputer(in: paths.computerState))
    }

    static func read(_ intake: StateFileIntake, library: URL, computer: String?) -> Result<GalleryState, Failure> {
        let folder = library.path
        let opened = try? LibraryFolder.open(library)
        let hasJournal = (try? opened?.folder(JournalLogFile.folderName)) != nil
        let finding = intake.look().finding
        let hasSnapshot = opened.map(JournalSaver.hasSnapshot(in:)) ?? false
        // A launch carries the file over while no snapshot holds it, and takes in one that changed since.
        var file: GalleryState?
        if !hasJournal || !hasSnapshot || finding != .known {
            switch intake.store.read() {
            case .loaded(let state): file = Lineage.withoutLineage(state)
            case .missing: break
            case .invalid where !hasJournal: return .failure(unreadable(folder, tr("it is not a valid gallery file")))
            case .newer(let version) where !hasJournal:
                return .failure(
                    unreadable(
                        folder,
                        tr("it was written by a newer version (format {format})", ["format": String(version)])))
            case .tooLarge where !hasJournal:
                let size = ByteCountFormatter.string(fromByteCount: Int64(StateFileBytes.limit), countStyle: .binary)
                return .failure(
                    unreadable(folder, tr("it is larger than {size}, more than any gallery holds", ["size": size])))
            case .failed(let reason) where !hasJournal:
                return .failure(unreadable(folder, tr("it could not be opened ({reason})", ["reason": reason])))
            case .invalid, .newer, .tooLarge, .failed: break  // the journal holds the library; a launch sets it aside
            }
        }
        guard hasJournal || file != nil else {
            return .failure(Failure(message: tr("There is no library in {folder} yet.", ["folder": folder])))
        }
        let carried = finding == .first || !hasSnapshot ? file : nil
        guard let opened,
            var state = JournalSaver.read(library: opened, carryingOver: carried, computer: computer ?? "printout")
        else { return .success(file ?? GalleryState(galleries: [])) }
        if finding == .changed, let file, intake.takenAsItIs {
            state = file
        } else if finding == .changed, let file {
            state =
                intake.lastTakenIn().map { GalleryState.merged(base: $0, theirs: file, ours: state) }
                ?? GalleryState.merged(theirs: file, ours: state)
        }
        return .success(state)
    }

    private static func unreadable(_ folder: String, _ reason: String) -> Failure {
        Failure(
            message: tr("The library in {folder} could not be read: {reason}.", ["folder": folder, "reason": reason]))
    }

    private static func complain(_ message: String) {
        FileHandle.standardError.write(Data("image-gallery: \(message)\n".utf8))
    }
}
