import Foundation
import GalleryCore
import GtkKit

/// Starts the GtkApplication, loads the saved galleries and builds the window on activation.
@MainActor
public final class ImageGalleryApplication {
    static let id = "io.github.imagegallery.ImageGallery"

    private let application = Application(id: ImageGalleryApplication.id)
    private var window: MainWindow?
    private var saver: BackgroundStateSaver?

    public static func run(arguments: [String]) -> Int32 {
        HTTPClient.globalInit()
        let app = ImageGalleryApplication()
        return app.application.run(arguments: arguments)
    }

    private init() {
        application.onActivate { [weak self] in self?.activate() }
        application.onShutdown { [weak self] in self?.saver?.flush() }
        _ = application.addAction("quit", accelerators: ["<Control>q"]) { [weak self] in self?.application.quit() }
    }

    private func activate() {
        if let window {
            window.present()
            return
        }
        if let data = Self.dataDirectory() {
            if let css = try? String(contentsOf: data.appendingPathComponent("style.css"), encoding: .utf8) {
                Application.applyStyleSheet(css)
            }
            // Uninstalled (a development build): the app icon comes from the source tree.
            IconTheme.appendSearchPath(data.appendingPathComponent("icons").path)
        }
        let directories = XDGDirectories()
        let store = StateStore(fileURL: StateStore.defaultFileURL())
        let loaded = store.load()
        let state: GalleryState
        var problem: String?
        var canSave = true
        switch loaded {
        case .loaded(let saved): state = saved
        case .missing: state = .initial
        case .unreadable(let reason, let keptAt):
            state = .initial
            if keptAt == store.fileURL {
                canSave = false
                problem = "Your gallery could not be read: \(reason). It was left untouched at \(keptAt.path), and changes will not be saved."
            } else {
                problem = "Your gallery could not be read: \(reason). It was kept as \(keptAt.lastPathComponent); a new gallery was started."
            }
        }

        let controller = GalleryController(state: state)
        let bytesSource = ImageBytesSource(cacheDirectory: directories.cacheHome.appendingPathComponent("image-gallery", isDirectory: true))
        let loader = ImageLoader(bytesSource: bytesSource)
        // Images deleted in an earlier session can no longer be undone: their downloads go.
        let referenced = Set(state.galleries.flatMap { $0.images.map(\.url) })
        let launch = Date()
        if case .loaded = loaded {
            DispatchQueue.global(qos: .utility).async { bytesSource.pruneCache(keeping: referenced, writtenBefore: launch) }
        }
        let window = MainWindow(application: application, controller: controller, loader: loader,
                                importsDirectory: StateStore.defaultFileURL().deletingLastPathComponent()
                                    .appendingPathComponent("imported", isDirectory: true))
        self.window = window
        if canSave {
            let saver = BackgroundStateSaver(store: store) { [weak window] message in
                MainContext.post { window?.say("Your gallery could not be saved: \(message)", seconds: nil) }
            }
            self.saver = saver
            controller.onSave = { saver.save($0) }
        }
        loader.onAspectRatio = { [weak controller] id, ratio in
            // Only a missing or unusable ratio is replaced: viewing alone never rewrites the file.
            guard let controller, let index = controller.index(of: id), let image = controller.cells[index].image,
                  image.displayAspectRatio != image.aspectRatio else { return }
            controller.correctAspectRatio(of: id, to: ratio)
        }
        if let problem { window.say(problem, seconds: nil) }
        window.present()
    }

    /// The app's data: installed as `<prefix>/share/image-gallery` beside the binary's prefix, or
    /// the source tree's `data/` for a development build.
    private static func dataDirectory() -> URL? {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var candidates = [executable.deletingLastPathComponent().appendingPathComponent("../share/image-gallery")]
        var directory = executable.deletingLastPathComponent()
        for _ in 0..<6 {
            candidates.append(directory.appendingPathComponent("data"))
            directory = directory.deletingLastPathComponent()
        }
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("style.css").path) }
    }
}
