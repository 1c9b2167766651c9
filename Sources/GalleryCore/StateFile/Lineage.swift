/// The fields older versions of the app wrote into the state file to name its version (`revision`, a random id) and
/// the versions it was made from (`ancestors`): the journal merges with stamps of its own (<doc:LibraryJournal>), so a
/// file taken in or printed is read without them.
enum Lineage {
    /// The state without its lineage's fields.
    static func withoutLineage(_ state: GalleryState) -> GalleryState {
        var clean = state
        clean.unknownFields.removeValue(forKey: StateFileFormat.revisionField)
        clean.unknownFields.removeValue(forKey: StateFileFormat.ancestorsField)
        return clean
    }
}
