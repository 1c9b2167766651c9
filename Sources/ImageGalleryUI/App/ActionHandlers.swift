import GalleryCore

/// The handlers the app, or one window, gives to its actions in `ActionTable`: each name is claimed as its
/// handler is added, so an action without a handler, or a handler without an entry, stops the app at once.
@MainActor
final class ActionHandlers {
    private let prefix: String
    private var unclaimed: Set<String>

    /// `prefix`: `app.` for the application's actions, `win.` for a window's.
    init(prefix: String) {
        self.prefix = prefix
        unclaimed = ActionTable.actionNames(prefix: prefix)
    }

    /// `name` (without its prefix), once the table is known to hold it and no other handler has it.
    func named(_ name: String) -> String {
        precondition(
            unclaimed.remove(name) != nil,
            untranslated("\(prefix)\(name) is not in ActionTable, or has a handler already"))
        return name
    }

    /// Once every handler is added: each action of the table has one.
    func checkEveryActionHandled() {
        precondition(unclaimed.isEmpty, untranslated("No handler for \(unclaimed.sorted().map { prefix + $0 })"))
    }
}
