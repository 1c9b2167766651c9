import Foundation
import GLibKit
import GalleryCore
import GalleryIO
import GtkKit

/// Turns gallery images into paintable surfaces through the image pipeline, at exactly the size they
/// are shown, the cells on screen before those about to be. Decoded surfaces are kept within a memory
/// budget, least recently painted dropped first. GTK thread API.
@MainActor
final class ImageLoader {
    enum State {
        case ready(CairoSurface)
        case loading
        case failed(String)
        /// Its original is named by the library but has not arrived (a synced folder): no error.
        case waitingForSync
        /// Its address, from another computer, is on the user's own network or machine: loaded once the user says so.
        case onLocalNetwork
    }

    /// Hears of each image whose surface arrived or failed.
    private let observers = Observers<ImageID>()
    /// What each view shows now: work for images no view shows may be dropped.
    private var visibleByView: [ObjectIdentifier: Set<ImageID>] = [:]
    /// An image's true shape, known once decoded; told only for images whose saved ratio was missing or
    /// unusable (finding an image in a large library for each picture that arrives is not free).
    var onAspectRatio: (ImageID, Double) -> Void = { _, _ in }
    /// The user chose to load these images, whose addresses are on the local network: they are fetched now.
    var onLocalAddressesApproved: ([GalleryImage]) -> Void = { _ in }

    let pipeline: ImagePipeline
    var bytesSource: ImageBytesSource { pipeline.bytes }

    private struct Entry {
        var surface: CairoSurface
        /// The file's own size: decoding again cannot get sharper than this.
        var originalWidth: Int
        var originalHeight: Int
        /// The cell size (device pixels) it was decoded for; nil for pixels handed in from elsewhere.
        var decodedFor: PixelSize?
        var lastUse: UInt64
        /// Whether `surface` is the display's copy yet (see `remember`).
        var isForDisplay = false
    }

    private struct PixelSize: Equatable {
        let width: Int
        let height: Int
    }

    private var surfaces: [ImageID: Entry] = [:]
    private var failures: [ImageID: String] = [:]
    /// Images waiting for their original (by SHA-256) to arrive, and the timer that looks for them.
    private var waitingForOriginal: [ImageID: String] = [:]
    /// Images not fetched until the user says so, as they were asked for: their address on the local network came
    /// from another computer.
    private var awaitingApproval: [ImageID: GalleryImage] = [:]
    private var waitingCheck: UInt32?
    /// Work under way: how to stop it, whether it is only a prefetch, and when it started (monotonic
    /// microseconds).
    private var inFlight: [ImageID: (cancellation: CancellationToken, prefetch: Bool, started: Int)] = [:]
    private var useCounter: UInt64 = 0
    private var usedBytes = 0
    let byteBudget: Int

    init(pipeline: ImagePipeline, byteBudget: Int = 192 * 1024 * 1024) {
        self.pipeline = pipeline
        self.byteBudget = byteBudget
    }

    /// What to paint for `image` in a cell of `cell`'s size (points) at the device `scale`; starts
    /// loading it (or a sharper version) when needed.
    func state(for image: GalleryImage, cell: LayoutRect, scale: Int) -> State {
        let (pixelWidth, pixelHeight) = Self.pixels(of: cell, scale: scale)
        if let failure = failures[image.id] { return .failed(failure) }
        if waitingForOriginal[image.id] != nil { return .waitingForSync }
        if let asked = awaitingApproval[image.id] {
            // Changed since (a merge named its kept original, or another address): asked for again.
            if asked == image { return .onLocalNetwork }
            awaitingApproval[image.id] = nil
        }
        useCounter += 1
        if var entry = surfaces[image.id] {
            entry.lastUse = useCounter
            if !entry.isForDisplay {
                let copy = entry.surface.forDisplay()
                usedBytes += copy.byteCount - entry.surface.byteCount
                entry.surface = copy
                entry.isForDisplay = true
            }
            surfaces[image.id] = entry
            // The cell changed size (zoom, a wider window): decode again to paint pixel for pixel,
            // and paint this one meanwhile. Once per cell size, whatever the decode gives.
            let fit = PixelFit(
                originalWidth: entry.originalWidth, originalHeight: entry.originalHeight,
                cellWidth: pixelWidth, cellHeight: pixelHeight)
            if inFlight[image.id] == nil, entry.decodedFor != PixelSize(width: pixelWidth, height: pixelHeight),
                fit.wantsRedecode(ofPixelWidth: entry.surface.pixelWidth, pixelHeight: entry.surface.pixelHeight)
            {
                load(image, pixelWidth: pixelWidth, pixelHeight: pixelHeight, scale: scale)
            }
            return .ready(entry.surface)
        }
        // A prefetch on its way is asked for again as a cell on screen; whichever comes first stops the other.
        if inFlight[image.id]?.prefetch ?? true {
            load(image, pixelWidth: pixelWidth, pixelHeight: pixelHeight, scale: scale)
        }
        return .loading
    }

    /// Starts loading a cell before it is painted: one about to scroll into view behind those on screen,
    /// or, with `onScreen`, one of the first screen while the window is being built.
    func prefetch(_ image: GalleryImage, cell: LayoutRect, scale: Int, onScreen: Bool = false) {
        guard failures[image.id] == nil, waitingForOriginal[image.id] == nil, awaitingApproval[image.id] == nil,
            surfaces[image.id] == nil, inFlight[image.id] == nil
        else { return }
        let (pixelWidth, pixelHeight) = Self.pixels(of: cell, scale: scale)
        load(image, pixelWidth: pixelWidth, pixelHeight: pixelHeight, scale: scale, prefetch: !onScreen)
    }

    /// A cell's size in device pixels, as decodes are asked for and kept.
    private static func pixels(of cell: LayoutRect, scale: Int) -> (width: Int, height: Int) {
        (Int((cell.width * Double(scale)).rounded(.up)), Int((cell.height * Double(scale)).rounded(.up)))
    }

    func failure(of id: ImageID) -> String? { failures[id] }

    /// Whether any image failed: while none has, a layout looks up no cell's failure.
    var hasFailures: Bool { !failures.isEmpty }

    /// Every image that could not be loaded.
    var failedIDs: Set<ImageID> { Set(failures.keys) }

    /// Whether the image has been on its way for longer than `seconds`: a picture read from disk
    /// in a few milliseconds shows no spinner on its way.
    func isSlow(_ id: ImageID, after seconds: Double) -> Bool {
        guard let started = inFlight[id]?.started else { return false }
        return Double(MainContext.monotonicMicroseconds - started) / 1_000_000 > seconds
    }

    /// The state without starting any work (for names read by assistive technologies).
    func peekState(of id: ImageID) -> State {
        if let failure = failures[id] { return .failed(failure) }
        if waitingForOriginal[id] != nil { return .waitingForSync }
        if awaitingApproval[id] != nil { return .onLocalNetwork }
        if let entry = surfaces[id] { return .ready(entry.surface) }
        return .loading
    }

    /// Whether the image waits for the user's word before its address on the local network is fetched.
    func awaitsApproval(_ id: ImageID) -> Bool { awaitingApproval[id] != nil }

    /// Whether the cell may offer its image as a file or as pixels (a copy, a drag out): not when it could not
    /// be loaded, or waits for the user's word; it offers its address alone then.
    func mayOfferAsFile(_ id: ImageID) -> Bool { failures[id] == nil && awaitingApproval[id] == nil }

    /// The user chose to load these images from the local network: their addresses are approved on this computer
    /// and every cell of the same address loads.
    func approveLocalAddresses(of ids: [ImageID]) {
        let images = ids.compactMap { awaitingApproval[$0] }
        guard !images.isEmpty else { return }
        bytesSource.localAddresses?.approve(images.map(\.url))
        let urls = Set(images.map(\.url))
        let loading = awaitingApproval.filter { urls.contains($0.value.url) }.map(\.key)
        for id in loading {
            awaitingApproval[id] = nil
            observers.send(id)
        }
        onLocalAddressesApproved(images)
    }

    /// The file's own pixel size, once a cell decoded it.
    func originalSize(of id: ImageID) -> (width: Int, height: Int)? {
        surfaces[id].map { ($0.originalWidth, $0.originalHeight) }
    }

    /// Forgets a failure, and whatever was cached for it, so the next paint tries again.
    func retry(_ id: ImageID) {
        failures[id] = nil
    }

    /// Calls `handler` with each image whose surface arrived or failed, while the observation lives.
    func observe(_ handler: @escaping (ImageID) -> Void) -> Observation {
        observers.add(handler)
    }

    /// Records what a view shows. Work for images no view shows any more (scrolled away, deleted,
    /// their window closed) stops: queued work is dropped and a download under way is cancelled, so
    /// it frees its slot; a decode already started finishes and is kept.
    func setVisible(_ visible: Set<ImageID>, for view: ObjectIdentifier) {
        visibleByView[view] = visible.isEmpty ? nil : visible
        let wanted = visibleByView.values.reduce(into: Set<ImageID>()) { $0.formUnion($1) }
        for (id, work) in inFlight where !wanted.contains(id) {
            work.cancellation.cancel()
            inFlight[id] = nil
        }
    }

    /// Puts already decoded pixels in the cache (a placeholder that just finished).
    func insert(_ decoded: DecodedImage<CairoSurface>, for id: ImageID) {
        failures[id] = nil
        remember(decoded, for: id)
    }

    private func load(_ image: GalleryImage, pixelWidth: Int, pixelHeight: Int, scale: Int, prefetch: Bool = false) {
        let id = image.id
        let ratioIsUsable = image.displayAspectRatio == image.aspectRatio
        let cancellation = inFlight[id]?.cancellation ?? CancellationToken()
        let cell = PixelSize(width: pixelWidth, height: pixelHeight)
        let request = PictureRequest(
            url: image.url, sha256: image.original?.sha256,
            fit: .cell(width: pixelWidth, height: pixelHeight, cornerRadius: GalleryView.cornerRadius),
            scale: scale)
        inFlight[id] = (cancellation, prefetch, inFlight[id]?.started ?? MainContext.monotonicMicroseconds)
        let priority: JobPriority = prefetch ? .prefetch : .visible
        pipeline.picture(
            request, priority: priority, cancellation: cancellation,
            onMain: { [weak self] decoded in
                // Superseded meanwhile (a prefetch turned visible, or scrolled away and back).
                guard let self, inFlight[id]?.cancellation === cancellation else { return }
                cancellation.cancel()
                finish(image, decoded, decodedFor: cell, tellsRatio: !ratioIsUsable)
            })
    }

    private func finish(
        _ image: GalleryImage, _ result: Result<DecodedImage<CairoSurface>, LoadFailure>, decodedFor cell: PixelSize,
        tellsRatio: Bool
    ) {
        let id = image.id
        let sha256 = image.original?.sha256
        inFlight[id] = nil
        switch result {
        case .success(let decoded):
            remember(decoded, for: id, decodedFor: cell)
            if tellsRatio, decoded.originalWidth > 0, decoded.originalHeight > 0 {
                onAspectRatio(id, Double(decoded.originalWidth) / Double(decoded.originalHeight))
            }
        case .failure(let failure) where failure.isWaitingForSync:
            waitingForOriginal[id] = sha256
            lookForArrivalsLater()
        case .failure(let failure) where failure.isOnLocalNetwork:
            awaitingApproval[id] = image
        case .failure(let failure):
            failures[id] = failure.description
        }
        observers.send(id)
    }

    /// Every two seconds while images wait for their originals: those that arrived are loaded (their
    /// cells hear of it and paint again). A stat each on the I/O lane, so a thousand waiting cost little.
    private func lookForArrivalsLater() {
        guard waitingCheck == nil, !waitingForOriginal.isEmpty else { return }
        waitingCheck = MainContext.after(milliseconds: 2000) { [weak self] in
            guard let self else { return }
            let waiting = waitingForOriginal
            let originals = bytesSource.originals
            pipeline.scheduler.submit(.io, .background) {
                let arrived = waiting.filter { originals.existingPath(for: $0.value) != nil }.map(\.key)
                MainContext.post { [weak self] in
                    guard let self else { return }
                    waitingCheck = nil
                    for id in arrived {
                        waitingForOriginal[id] = nil
                        observers.send(id)
                    }
                    lookForArrivalsLater()
                }
            }
        }
    }

    private func remember(_ decoded: DecodedImage<CairoSurface>, for id: ImageID, decodedFor cell: PixelSize? = nil) {
        useCounter += 1
        if let old = surfaces[id] { usedBytes -= old.surface.byteCount }
        // The display's copy, read without an upload in every frame the picture is on screen, is
        // made at its first paint: most of a drop's hundred pictures land off screen, and making
        // each copy at once held the window's thread (fresh shared memory to fault in and fill).
        surfaces[id] = Entry(
            surface: decoded.bitmap, originalWidth: decoded.originalWidth,
            originalHeight: decoded.originalHeight, decodedFor: cell, lastUse: useCounter)
        usedBytes += decoded.bitmap.byteCount
        evictIfNeeded()
    }

    /// Drops the least recently painted surfaces until within budget.
    private func evictIfNeeded() {
        guard usedBytes > byteBudget else { return }
        let oldestFirst = surfaces.sorted { $0.value.lastUse < $1.value.lastUse }
        for (id, entry) in oldestFirst where usedBytes > byteBudget * 3 / 4 {
            surfaces[id] = nil
            usedBytes -= entry.surface.byteCount
        }
    }
}
