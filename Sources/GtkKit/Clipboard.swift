import CGtk
import Foundation
import GLibKit

/// The CLIPBOARD selection: what Ctrl+V pastes.
@MainActor
public enum Clipboard {
    private static var clipboard: OpaquePointer { gtk_clipboard_get(gdk_atom_intern("CLIPBOARD", 0)) }

    private typealias TargetsHandler = @MainActor ([String]) -> Void
    private typealias ContentsHandler = @MainActor ([UInt8]?) -> Void

    /// Asks which targets the clipboard offers; `handler` runs on the main loop with the names.
    public static func requestTargets(_ handler: @escaping @MainActor ([String]) -> Void) {
        let box = CallbackBox<TargetsHandler>(handler)
        gtk_clipboard_request_targets(
            clipboard,
            { _, atoms, count, userData in
                // GTK calls this once: the box is released here.
                let box = Unmanaged<CallbackBox<TargetsHandler>>.fromOpaque(userData!).takeRetainedValue()
                var names: [String] = []
                for index in 0..<Int(max(count, 0)) {
                    guard let atom = atoms?[index], let name = gdk_atom_name(atom) else { continue }
                    names.append(String(cString: name))
                    g_free(name)
                }
                onMain { box.handler(names) }
            }, box.retainedPointer)
    }

    /// Asks for one target's bytes (nil when the owner sent none).
    public static func requestContents(_ target: String, _ handler: @escaping @MainActor ([UInt8]?) -> Void) {
        let box = CallbackBox<ContentsHandler>(handler)
        gtk_clipboard_request_contents(
            clipboard, gdk_atom_intern(target, 0),
            { _, data, userData in
                let box = Unmanaged<CallbackBox<ContentsHandler>>.fromOpaque(userData!).takeRetainedValue()
                let bytes = data.flatMap { SelectionData(data: $0).bytes }
                onMain { box.handler(bytes) }
            }, box.retainedPointer)
    }

    /// Offers `contents` (target name → bytes, made beforehand) as the clipboard's owner until
    /// something else is copied; each application asks for the targets it reads. A clipboard
    /// manager may keep them after the app quits.
    public static func offer(_ contents: [(target: String, bytes: [UInt8])]) {
        guard !contents.isEmpty else { return }
        let offered = OfferedContents(contents)
        let names: [UnsafeMutablePointer<CChar>?] = contents.map { strdup($0.target) }
        defer { for pointer in names { free(pointer) } }
        var entries = names.enumerated().map { GtkTargetEntry(target: $1, flags: 0, info: guint($0)) }
        let owned = Unmanaged.passRetained(offered).toOpaque()
        let accepted = gtk_clipboard_set_with_data(
            clipboard, &entries, guint(entries.count),
            { _, data, info, userData in
                let offered = Unmanaged<OfferedContents>.fromOpaque(userData!).takeUnretainedValue()
                guard let data, Int(info) < offered.contents.count else { return }
                let (target, bytes) = offered.contents[Int(info)]
                SelectionData(data: data).set(bytes, as: target)
            },
            { _, userData in
                // GTK is done with these contents (another owner, or the app is closing).
                Unmanaged<OfferedContents>.fromOpaque(userData!).release()
            }, owned)
        if accepted == 0 {
            Unmanaged<OfferedContents>.fromOpaque(owned).release()
            return
        }
        gtk_clipboard_set_can_store(clipboard, nil, 0)
    }

    private final class OfferedContents {
        let contents: [(target: String, bytes: [UInt8])]
        init(_ contents: [(target: String, bytes: [UInt8])]) { self.contents = contents }
    }
}
