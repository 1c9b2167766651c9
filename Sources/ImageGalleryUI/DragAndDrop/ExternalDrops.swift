import Foundation
import GalleryCore
import GtkKit

/// Drops from browsers, file managers and other apps, wherever they land (the gallery, a sidebar
/// row): the targets worth having are requested while the drag hovers, so that at the drop a
/// placeholder goes where it lands and the core's parser already has what it needs; what it finds
/// goes to the download pipeline. One per window, shared by the gallery and the sidebar.
@MainActor
final class ExternalDrops {
    /// The answers to one drag's requests, as they come.
    private struct Answers {
        let context: DragContext
        var awaiting: Set<String>
        var received: [String: [UInt8]] = [:]
        /// The drag left the widget that asked, and no motion came since.
        var hasLeft = false

        var images: [DroppedImage] { DropPayload.images(received: received) }

        mutating func record(_ data: SelectionData) {
            awaiting.remove(data.target)
            if let bytes = data.bytes, !bytes.isEmpty { received[data.target] = bytes }
        }
    }

    /// A drop whose answers are still on their way.
    private struct Pending {
        var answers: Answers
        let placeholder: ImageID
        let time: UInt32
    }

    private let library: GalleryLibrary
    /// Answers asked for while the drag hovered, before any drop. Asking early also means GTK's
    /// selection window, made on a process's first request, is made before the drop and not
    /// during it: the X round trips that takes would otherwise delay the placeholder.
    private var hovering: Answers?
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

    /// A drag from another application moves over `widget`, whose drag-data-received must call
    /// `received`: its first motion asks for the targets worth having (GTK documents asking
    /// during drag-motion; the source answers once, and the drop uses the answers).
    func hovered(_ context: DragContext, over widget: Widget, time: UInt32) {
        if hovering?.context == context {
            hovering?.hasLeft = false
            return
        }
        guard Self.mayContainImage(context) else { return }
        hovering = request(context, at: widget, time: time)
    }

    /// The drag left a widget: its answers are let go unless a drop or a motion follows at once
    /// (GTK sends drag-leave just before drag-drop, and between the gallery and the sidebar).
    func left(_ context: DragContext) {
        guard hovering?.context == context else { return }
        hovering?.hasLeft = true
        MainContext.post { [weak self] in
            guard let self, let hovering, hovering.context == context, hovering.hasLeft else { return }
            self.hovering = nil
        }
    }

    /// Takes a drop: `placeholder(label)` puts the placeholder where the drop lands; answers still
    /// to come arrive at `widget`'s drag-data-received, which must call `received`.
    func begin(_ context: DragContext, at widget: Widget, time: UInt32, placeholder: (String) -> ImageID?) {
        let early = hovering.flatMap { $0.context == context ? $0 : nil }
        hovering = nil
        let earlyImages = early.flatMap { $0.awaiting.isEmpty ? $0.images : nil }
        // A source that answered the early asking with nothing usable is asked again: some give
        // their data only once it is dropped.
        let asked = (earlyImages?.isEmpty == true ? nil : early) ?? request(context, at: widget, time: time)
        // Translators: what a dropped image is called until its name is known ("Downloading image").
        guard !asked.awaiting.isEmpty || !asked.received.isEmpty, let id = placeholder(tr("image")) else {
            context.finish(success: false, time: time)
            return
        }
        let drop = Pending(answers: asked, placeholder: id, time: time)
        if let earlyImages, !earlyImages.isEmpty {
            land(drop, images: earlyImages)
        } else {
            pending.append(drop)
        }
    }

    func received(_ context: DragContext, data: SelectionData) {
        if hovering?.context == context {
            hovering?.record(data)
            return
        }
        guard let position = pending.firstIndex(where: { $0.answers.context == context }) else { return }
        pending[position].answers.record(data)
        guard pending[position].answers.awaiting.isEmpty else { return }
        let drop = pending.remove(at: position)
        land(drop, images: drop.answers.images)
    }

    private func request(_ context: DragContext, at widget: Widget, time: UInt32) -> Answers {
        let offered = context.offeredTargets
        let targets =
            DropPayload.targetsToRequest(offered: offered) + DropPayload.originTargetsToRequest(offered: offered)
        for target in targets { context.requestData(target, for: widget, time: time) }
        return Answers(context: context, awaiting: Set(targets))
    }

    /// Every answer is in: the images found go to the downloads, or the window says why none did.
    private func land(_ drop: Pending, images: [DroppedImage]) {
        drop.answers.context.finish(success: !images.isEmpty, time: drop.time)
        guard !images.isEmpty else {
            library.discardPlaceholder(drop.placeholder)
            onRefused(Self.describeRefusal(drop.answers.received))
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
