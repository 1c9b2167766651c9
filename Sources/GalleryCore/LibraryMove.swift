import Foundation

/// Moving the library (state.json and originals/) from one folder into another, such as a folder a sync
/// tool shares. Nothing is removed until the new folder holds everything and this computer's settings
/// name it: a move stopped anywhere (cancelled, killed) leaves the old library whole and named, and the
/// copies made so far are found again by the next try (originals are named by their bytes).
public struct LibraryMove: Sendable {
    public let from: URL
    public let to: URL

    public init(from: URL, to: URL) {
        self.from = from.standardizedFileURL
        self.to = to.standardizedFileURL
    }

    /// Why a move cannot be made, or stopped.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case sameFolder
        case cancelled
        case file(FileError)
        case newerLibrary(version: Int)

        public var description: String {
            switch self {
            case .sameFolder: tr("the library is in that folder already")
            case .cancelled: tr("cancelled")
            case .file(let error): error.description
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
        let source = from.appendingPathComponent("originals")
        let target = to.appendingPathComponent("originals")
        var paths: [String] = []
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: source.path)) ?? []
        for folder in folders.sorted() where folder.utf8.count == 2 {
            let names =
                (try? FileManager.default.contentsOfDirectory(atPath: source.appendingPathComponent(folder).path))
            for name in (names ?? []).sorted() where KeptOriginal.isValidName(name) {
                let path = folder + "/" + name
                if Self.size(target.appendingPathComponent(path)) != Self.size(source.appendingPathComponent(path)) {
                    paths.append(path)
                }
            }
        }
        return paths
    }

    /// Copies `paths` (from `originalsToCopy`) into the new folder, each whole and flushed before it counts;
    /// `progress` hears how many are done after each. Stops between two files once `isCancelled` says so.
    public func copyOriginals(
        _ paths: [String], isCancelled: () -> Bool = { false }, progress: (Int) -> Void = { _ in }
    ) throws(Failure) {
        let source = from.appendingPathComponent("originals")
        let target = to.appendingPathComponent("originals")
        for (done, path) in paths.enumerated() {
            if isCancelled() { throw .cancelled }
            let data: Data
            do {
                data = try Data(contentsOf: source.appendingPathComponent(path))
            } catch {
                continue  // gone meanwhile (pruned): nothing to carry
            }
            let destination = target.appendingPathComponent(path)
            do throws(FileError) {
                try FileWriter.makeFolders(destination.deletingLastPathComponent().path)
                try FileWriter.kept.write(data, to: destination.path, policy: .replace)
            } catch {
                throw .file(error)
            }
            progress(done + 1)
        }
    }

    /// Writes the library's state into the new folder: the old folder's file as it is, or, when the new
    /// folder holds a library already (another computer's, carried there by the sync tool), both merged
    /// with nothing either has counted as deleted.
    public func moveState() throws(Failure) {
        let oldStore = StateStore(fileURL: from.appendingPathComponent("state.json"))
        let newStore = StateStore(fileURL: to.appendingPathComponent("state.json"))
        guard case .loaded(let ours) = oldStore.read() else { return }  // nothing saved yet: nothing to move
        var written = ours
        switch newStore.read() {
        case .loaded(let theirs):
            let (theirState, theirLineage) = Lineage.split(theirs)
            let (ourState, ourLineage) = Lineage.split(ours)
            let lineage = Lineage(revision: RandomID.make(), takenIn: [theirLineage, ourLineage].compactMap { $0 })
            written = lineage.stamped(GalleryState.merged(theirs: theirState, ours: ourState))
        case .newer(let version):
            throw .newerLibrary(version: version)
        case .missing, .invalid, .failed, .tooLarge:
            break  // an unusable file there is kept aside by the save below, as a launch would
        }
        do {
            _ = try newStore.save(written)
        } catch let error as FileError {
            throw .file(error)
        } catch {
            throw .file(FileError(code: EIO))
        }
    }

    /// Removes the old folder's state file and originals, once the settings name the new folder; what
    /// else the folder holds (another program's files, this computer's imports) stays.
    public func removeOld() {
        guard from != to else { return }
        unlink(from.appendingPathComponent("state.json").path)
        let source = from.appendingPathComponent("originals")
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: source.path)) ?? []
        for folder in folders where folder.utf8.count == 2 {
            let folderPath = source.appendingPathComponent(folder).path
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folderPath)) ?? [] {
                unlink(folderPath + "/" + name)
            }
            rmdir(folderPath)
        }
        rmdir(source.path)
    }

    private static func size(_ url: URL) -> Int? {
        var status = stat()
        guard stat(url.path, &status) == 0 else { return nil }
        return Int(status.st_size)
    }
}
