import Foundation
import GLibKit
import GalleryCore
import GalleryIO
import GtkKit

/// Drops from browsers, file managers and other apps, wherever they land (the gallery, a sidebar
/// row): the targets worth having are requested while the drag hovers, so that at the drop a
/// placeholder goes where it lands and the core's parser already has what it needs; the parser runs
/// on a worker (a page may hand over megabytes), and what it finds goes to the download pipeline.
/// One per window, shared by the gallery and the sidebar.
@MainActor
final class ExternalDrops {
    /// The answers to one drag's requests, as they come.
    private struct Answers {
        let context: DragContext
        var awaiting: Set<String>
        var received: [String: [UInt8]] = [:]
        /// The drag left the widget that asked, and no motion came since.
        var hasLeft = false

        mutating func record(_ data: SelectionData) {
            awaiting.remove(data.target)
            if let bytes = data.bytes, !bytes.isEmpty { received[data.target] = bytes }
        }
    }

    /// A drop whose answers are still on their way, or being read.
    private struct Pending {
        var answers: Answers
        let placeholder: ImageID
        let time: UInt32
        /// The widget that asks again when the answers given while hovering held nothing.
        let widget: Widget
        /// The answers are those given while the drag hovered.
        var answeredEarly: Bool
    }

    private let library: GalleryLibrary
    private let scheduler: JobScheduler
    /// Answers asked for while the drag hovered, before any drop. Asking early also means GTK's
    /// selection window, made on a process's first request, is made before the drop and not
    /// during it: the X round trips that takes would otherwise delay the placeholder.
    private var hovering: Answers?
    private var pending: [Pending] = []
    /// Images found in a drop, for the downloads to bring into `placeholder`.
    var onImages: (_ images: [DroppedImage], _ placeholder: ImageID) -> Void = { _, _ in }
    /// A drop that held nothing usable: the window says so.
    var onRefused: (String) -> Void = { _ in }

    init(library: GalleryLibrary, scheduler: JobScheduler) {
        self.library = library
        self.scheduler = scheduler
    }

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
        let early = hovering.flatMap {
            $0.context == context && !($0.awaiting.isEmpty && $0.received.isEmpty) ? $0 : nil
        }
        hovering = nil
        // A source that answered the early asking with nothing is asked again: some give their data
        // only once it is dropped.
        let asked = early ?? request(context, at: widget, time: time)
        // Translators: what a dropped image is called until its name is known ("Downloading image").
        guard !asked.awaiting.isEmpty || !asked.received.isEmpty, let id = placeholder(tr("image")) else {
            context.finish(success: false, time: time)
            return
        }
        let drop = Pending(
            answers: asked, placeholder: id, time: time, widget: widget, answeredEarly: early?.awaiting.isEmpty == true)
        if asked.awaiting.isEmpty {
            read(drop)
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
        read(pending.remove(at: position))
    }

    private func request(_ context: DragContext, at widget: Widget, time: UInt32) -> Answers {
        let offered = context.offeredTargets
        let targets =
            DropPayload.targetsToRequest(offered: offered) + DropPayload.originTargetsToRequest(offered: offered)
        for target in targets { context.requestData(target, for: widget, time: time) }
        return Answers(context: context, awaiting: Set(targets))
    }

    /// Every answer is in: the parser reads them on a worker, and the drop lands when it is done.
    private func read(_ drop: Pending) {
        let (received, offered) = (drop.answers.received, drop.answers.context.offeredTargets)
        scheduler.run(
            .cpu, .visible, { DropPayload.contents(received: received, offered: offered) },
            then: { [weak self] contents in self?.land(drop, contents: contents) })
    }

    /// The images found go to the downloads, or the window says why none did.
    private func land(_ drop: Pending, contents: DropContents) {
        if contents.images.isEmpty && drop.answeredEarly {
            var again = drop
            again.answers = request(drop.answers.context, at: drop.widget, time: drop.time)
            again.answeredEarly = false
            pending.append(again)
            return
        }
        drop.answers.context.finish(success: !contents.images.isEmpty, time: drop.time)
        guard !contents.images.isEmpty else {
            library.discardPlaceholder(drop.placeholder)
            onRefused(Self.describeRefusal(drop.answers.received, contents: contents))
            return
        }
        onImages(contents.images, drop.placeholder)
    }

    /// Why an address was left out of a drop unread.
    static var oversizedRefusal: String {
        tr(
            "Couldn’t add “{image}”: {reason}",
            [
                "image": tr("Embedded image"),
                "reason": tr(
                    "larger than {megabytes} MB",
                    ["megabytes": Localization.number(Int(ImageLimits.maximumDownloadBytes / 1_000_000))]),
            ])
    }

    /// Names what was dropped when it held no image: its text, without markup.
    private static func describeRefusal(_ received: [String: [UInt8]], contents: DropContents) -> String {
        if contents.oversizedAddresses > 0 { return oversizedRefusal }
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
