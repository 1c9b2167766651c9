import CGtk
import Foundation

/// The CLIPBOARD selection: what Ctrl+V pastes.
@MainActor
public enum Clipboard {
    private static var clipboard: OpaquePointer { gtk_clipboard_get(gdk_atom_intern("CLIPBOARD", 0)) }

    private typealias TargetsHandler = @MainActor ([String]) -> Void
    private typealias ContentsHandler = @MainActor ([UInt8]?) -> Void

    /// Asks which targets the clipboard offers; `handler` runs on the main loop with the names.
    public static func requestTargets(_ handler: @escaping @MainActor ([String]) -> Void) {
        let box = CallbackBox<TargetsHandler>(handler)
        gtk_clipboard_request_targets(clipboard, { _, atoms, count, userData in
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
        gtk_clipboard_request_contents(clipboard, gdk_atom_intern(target, 0), { _, data, userData in
            let box = Unmanaged<CallbackBox<ContentsHandler>>.fromOpaque(userData!).takeRetainedValue()
            let bytes = data.flatMap { SelectionData(data: $0).bytes }
            onMain { box.handler(bytes) }
        }, box.retainedPointer)
    }
}
