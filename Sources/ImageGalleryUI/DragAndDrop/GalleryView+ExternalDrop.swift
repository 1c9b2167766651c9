import Foundation
import GalleryCore
import GtkKit

/// A drop from another application whose targets are still being transferred.
struct PendingDrop {
    let context: DragContext
    let placeholder: ImageID
    var awaiting: Set<String>
    var received: [String: [UInt8]] = [:]
    let time: UInt32
}

/// Drops from browsers, file managers and other apps: a placeholder appears at once where the drop
/// landed; the targets worth having are requested and handed to the core's parser.
extension GalleryView {
    func beginExternalDrop(_ context: DragContext, insertionIndex: Int, time: UInt32) {
        let targets = DropPayload.targetsToRequest(offered: context.offeredTargets)
        guard !targets.isEmpty, let dropArea = drag.dropArea else {
            context.finish(success: false, time: time)
            return
        }
        let placeholder = controller.insertPlaceholder(at: insertionIndex, label: "image")
        drag.pendingDrops.append(PendingDrop(context: context, placeholder: placeholder, awaiting: Set(targets), time: time))
        // The answers arrive as drag-data-received on the widget that asks: the drop area.
        for target in targets { context.requestData(target, for: dropArea, time: time) }
    }

    func receivedDropData(_ context: DragContext, data: SelectionData, time: UInt32) {
        guard let position = drag.pendingDrops.firstIndex(where: { $0.context == context }) else { return }
        let target = data.target
        drag.pendingDrops[position].awaiting.remove(target)
        if let bytes = data.bytes, !bytes.isEmpty { drag.pendingDrops[position].received[target] = bytes }
        guard drag.pendingDrops[position].awaiting.isEmpty else { return }
        let drop = drag.pendingDrops.remove(at: position)
        let images = DropPayload.images(received: drop.received)
        drop.context.finish(success: !images.isEmpty, time: drop.time)
        guard !images.isEmpty else {
            controller.discardPlaceholder(drop.placeholder)
            onDropRefused(Self.describeRefusal(drop.received))
            return
        }
        onExternalDrop(images, drop.placeholder)
    }

    /// Names what was dropped when it held no image: its text, without markup.
    private static func describeRefusal(_ received: [String: [UInt8]]) -> String {
        if received.isEmpty { return "The drop could not be added: the other application sent no data" }
        let text = received.values.compactMap { String(bytes: $0.prefix(400), encoding: .utf8) }.first?
            .replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression)
            .replacingOccurrences(of: "\\s+", with: " ", options: .regularExpression)
            .trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\0")))
        if let text, !text.isEmpty {
            let shown = text.count > 60 ? String(text.prefix(57)) + "…" : text
            return "“\(shown)” is not an image"
        }
        return "The drop could not be added: it is not an image"
    }
}
