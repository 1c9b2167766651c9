import Foundation
import GLibKit
import GalleryCore
import GalleryIO

/// The animations a gallery plays in its cells: the one under the pointer, the one with the keyboard focus, or
/// every one on screen (Play Animations). A cell that stops playing (the pointer left, scrolled away) lets its
/// frames go and shows its first frame, its still picture, again.
@MainActor
final class CellAnimations {
    /// A cell to play: its image, and its size in device pixels.
    struct Wanted {
        var image: GalleryImage
        var width: Int
        var height: Int
    }

    private let pipeline: ImagePipeline
    private var playing: [ImageID: CellAnimation] = [:]
    /// A frame of this cell's animation is ready to show.
    var onFrame: (ImageID) -> Void = { _ in }

    init(pipeline: ImagePipeline) {
        self.pipeline = pipeline
    }

    /// The frame a cell's animation shows now; nil when it shows its still picture.
    func surface(of id: ImageID) -> CairoSurface? { playing[id]?.surface }

    var playingIDs: Set<ImageID> { Set(playing.keys) }

    /// Plays exactly these cells: the others stop; one whose size changed starts again at its new size.
    func play(_ wanted: [ImageID: Wanted], scale: Int) {
        for (id, animation) in playing {
            guard let cell = wanted[id], cell.width == animation.width, cell.height == animation.height else {
                animation.stop()
                playing[id] = nil
                onFrame(id)
                continue
            }
        }
        for (id, cell) in wanted where playing[id] == nil {
            playing[id] = CellAnimation(
                cell.image, width: cell.width, height: cell.height, scale: scale, pipeline: pipeline,
                onFrame: { [weak self] in self?.onFrame(id) })
        }
    }

    func stopAll() { play([:], scale: 1) }
}
