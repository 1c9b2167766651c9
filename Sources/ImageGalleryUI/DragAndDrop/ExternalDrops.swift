import Foundation
import GalleryCore
import GtkKit

/// Drops from browsers, file managers and other apps, wherever they land (the gallery, a sidebar
/// row): a placeholder is already waiting where the drop will go; the targets worth having are
/// requested and handed to the core's parser, and what it finds goes to the download pipeline.
@MainActor
final class ExternalDrops {
    /// A drop whose targets are still being transferred.
    private struct Pending {
        let context: DragContext
        let placeholder: ImageID
        var awaiting: Set<String>
        var received: [String: [UInt8]] = [:]
        let time: UInt32
    }

    private let library: GalleryLibrary
    private var pending: [Pending] = []
    /// Images found in a drop, for the downloads to bring into `placeholder`.
    var onImages: (_ images: [DroppedImage], _ placeholder: ImageID) -> Void = { _, _ in }
    /// A drop that held nothing usable: the window says so.
    var onRefused: (String) -> Void = { _ in }

    init(library: GalleryLibrary) { self.library = library }

    /// Whether a drag from another application may hold an image, judged by its targets alone.
    static func mayContainImage(_ context: DragContext) -> Bool {
        !context.startedInThisApp && DropPayload.mayContainImage(offered: context.offeredTargets)
    }

    /// Takes a drop: `placeholder(label)` puts the placeholder where the drop lands; the answers
    /// arrive at `widget`'s drag-data-received, which must call `received`.
    func begin(_ context: DragContext, at widget: Widget, time: UInt32, placeholder: (String) -> ImageID?) {
        let targets = DropPayload.targetsToRequest(offered: context.offeredTargets)
        // Translators: what a dropped image is called until its name is known ("Downloading image").
        guard !targets.isEmpty, let id = placeholder(tr("image")) else {
            context.finish(success: false, time: time)
            return
        }
        pending.append(Pending(context: context, placeholder: id, awaiting: Set(targets), time: time))
        for target in targets { context.requestData(target, for: widget, time: time) }
    }

    func received(_ context: DragContext, data: SelectionData) {
        guard let position = pending.firstIndex(where: { $0.context == context }) else { return }
        pending[position].awaiting.remove(data.target)
        if let bytes = data.bytes, !bytes.isEmpty { pending[position].received[data.target] = bytes }
        guard pending[position].awaiting.isEmpty else { return }
        let drop = pending.remove(at: position)
        let images = DropPayload.images(received: drop.received)
        drop.context.finish(success: !images.isEmpty, time: drop.time)
        guard !images.isEmpty else {
            library.discardPlaceholder(drop.placeholder)
            onRefused(Self.describeRefusal(drop.received))
            return
        }
        onImages(images, drop.placeholder)
    }

    /// Names what was dropped when it held no image: its text, without markup.
    private static func describeRefusal(_ received: [String: [UInt8]]) -> String {
        if received.isEmpty { return tr("The drop could not be added: the other application sent no data") }
        let text = received.values.compactMap { String(bytes: $0.prefix(400), encoding: .utf8) }.first?
            .replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression)
            .replacingOccurrences(of: "\\s+", with: " ", options: .regularExpression)
            .trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\0")))
        if let text, !text.isEmpty {
            let shown = text.count > 60 ? String(text.prefix(57)) + "…" : text
            return tr("“{text}” is not an image", ["text": shown])
        }
        return tr("The drop could not be added: it is not an image")
    }
}
