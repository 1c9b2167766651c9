import Foundation

/// Encodes the states a saver writes one after another, each image's text written once and reused
/// by the saves after it while the image is unchanged: while a drop lands every arrival saves the
/// whole state, and encoding every image again each time made saving a drop quadratic.
struct StateEncoder {
    /// The text of the last state encoded, and where each image's lies in it (with the image it was
    /// written from). The library holds that text besides the state: about the size of the file.
    struct ImageTexts {
        var bytes: [UInt8] = []
        var byID: [ImageID: (image: GalleryImage, range: Range<Int>)] = [:]
    }

    private var texts = ImageTexts()

    mutating func encode(_ state: GalleryState) -> Data {
        Data(StateFileFormat.encode(state, reusing: &texts))
    }
}
