import Foundation

/// Moving the library (its journal and originals/) from one folder into another, such as a folder a sync
/// tool shares. Nothing is removed until the new folder holds everything and this computer's settings
/// name it: a move stopped anywhere (cancelled, killed) leaves the old library whole and named, and the
/// copies made so far are found again by the next try (originals are named by their bytes).
public struct LibraryMove: Sendable {
    public let from: URL
    public let to: URL
    /// The data folder, where a state.json the user linked is followed (see `StateStore.followsLink`).
    public let dataFolder: URL

    public init(from: URL, to: URL, dataFolder: URL) {
        self.from = from.standardizedFileURL
        self.to = to.standardizedFileURL
        self.dataFolder = dataFolder.standardizedFileURL
    }

    /// Why a move cannot be made, or stopped.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case sameFolder
        case cancelled
        case file(FileError)
        case newerLibrary(version: Int)
        /// The new folder's journal did not take the library in: why.
        case journal(String)

        public var description: String {
            switch self {
            case .sameFolder: tr("the library is in that folder already")
            case .cancelled: tr("cancelled")
            case .file(let error): error.description
            case .journal(let reason): reason
            case .newerLibrary(let version):
                tr(
                    "the folder holds a library from a newer version (format {format})",
                    ["format": String(version)])
            }
        }
    }

    /// The originals of the old folder that the new one does not hold whole yet, by their path under
    /// `originals/` ("ab/abcd…").
    public func originalsToCopy() -> [String] {
        guard let source = Self.folder(from, ["originals"]) else { return [] }
        var paths: [String] = []
        for folder in source.names().sorted() where folder.utf8.count == 2 {
            guard let sourceFolder = try? source.folder(folder) else { continue }
            let targetFolder = Self.folder(to, ["originals", folder])
            for name in sourceFolder.names().sorted() where KeptOriginal.isValidName(name) {
                guard let size = Self.size(of: name, in: sourceFolder) else { continue }
                if targetFolder.flatMap({ Self.size(of: name, in: $0) }) != size { paths.append(folder + "/" + name) }
            }
        }
        return paths
    }

    /// Copies `paths` (from `originalsToCopy`) into the new folder, each whole and flushed before it counts;
    /// `progress` hears how many are done after each. Stops between two files once `isCancelled` says so.
    public func copyOriginals(
        _ paths: [String], isCancelled: () -> Bool = { false }, progress: (Int) -> Void = { _ in }
    ) throws(Failure) {
        for (done, path) in paths.enumerated() {
            if isCancelled() { throw .cancelled }
            let parts = path.split(separator: "/").map(String.init)
            guard parts.count == 2, let source = Self.folder(from, ["originals", parts[0]]),
                let descriptor = try? source.openFile(parts[1], flags: O_RDONLY | O_NONBLOCK),
                let data = try? FileHandle(fileDescriptor: descriptor, closeOnDealloc: true).readToEnd()
            else {
                continue  // gone meanwhile (pruned), or no file: nothing to carry
            }
            do throws(FileError) {
                let target = try LibraryFolder.open(to, creating: true).folder(
                    at: ["originals", parts[0]], creating: true)
                try FileWriter.kept.write(data, named: parts[1], in: target, policy: .replace)
            } catch {
                throw .file(error)
            }
            progress(done + 1)
        }
    }

    /// Writes the library into the new folder's journal (<doc:LibraryJournal>): the old folder's library, as
    /// `--print-state` reads it, taken in as this computer's edits, merged with a library already there (another
    /// computer's, carried there by the sync tool) with nothing either has counted as deleted. `stateFolder` is this
    /// computer's own, which holds its id in the journal.
    public func moveState(stateFolder: URL) throws(Failure) {
        let oldStore = StateStore(fileURL: from.appendingPathComponent("state.json"), followsLink: from == dataFolder)
        let newStore = StateStore(fileURL: to.appendingPathComponent("state.json"), followsLink: to == dataFolder)
        let read = LibraryPrintout.read(
            StateFileIntake(store: oldStore, stateFolder: stateFolder), library: from,
            computer: JournalSaver.existingComputer(in: stateFolder))
        guard case .success(let ours) = read else { return }  // nothing saved yet: nothing to move
        if case .newer(let version) = newStore.read() { throw .newerLibrary(version: version) }
        let saver: JournalSaver
        do {
            saver = try JournalSaver(
                library: LibraryFolder.open(to, creating: true), stateFolder: stateFolder, onError: { _ in })
        } catch let error as FileError {
            throw .file(error)
        } catch JournalLogFile.Failure.failed(let error) {
            throw .file(error)
        } catch {
            throw .file(FileError(code: EIO))
        }
        if let reason = saver.takeIn(library: ours, adopting: true) { throw .journal(reason) }
    }

    /// Removes the old folder's state file and originals, once the settings name the new folder; what
    /// else the folder holds (another program's files, this computer's imports) stays.
    public func removeOld() {
        guard from != to, let library = Self.folder(from, []) else { return }
        library.remove("state.json")
        if let journal = try? library.folder(JournalLogFile.folderName) {
            for name in journal.names() { journal.remove(name) }
            library.removeEmptyFolder(JournalLogFile.folderName)
        }
        guard let source = try? library.folder("originals") else { return }
        for folder in source.names() where folder.utf8.count == 2 {
            // Emptied only when it is the library's own folder: a link leads to someone else's files.
            guard let originals = try? source.folder(folder) else { continue }
            for name in originals.names() { originals.remove(name) }
            source.removeEmptyFolder(folder)
        }
        library.removeEmptyFolder("originals")
    }

    /// The folder at `names` below `library`, reached through no link.
    private static func folder(_ library: URL, _ names: [String]) -> LibraryFolder? {
        try? LibraryFolder.open(library).folder(at: names)
    }

    /// The size of the file `name`; nil when it is no file.
    private static func size(of name: String, in folder: LibraryFolder) -> Int? {
        guard let status = folder.status(of: name), status.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(status.st_size)
    }
}
