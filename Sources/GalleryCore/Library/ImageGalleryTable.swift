/// Which gallery holds each image, so that an edit finds its image in one gallery: each image's gallery as a number
/// into the galleries' ids, each id kept once, where a dictionary of ids to ids would hold a gallery's id for every
/// image.
struct ImageGalleryTable: Sendable {
    private var numbers: [ImageID: UInt32]
    /// Each gallery's id at its number; a gallery deleted keeps its number, so that numbers never change meaning.
    private var galleryIDs: [String] = []
    private var galleryNumbers: [String: UInt32] = [:]
    private var lastNumber: UInt32?

    init(minimumCapacity: Int = 0) { numbers = [ImageID: UInt32](minimumCapacity: minimumCapacity) }

    /// How many images it places.
    var count: Int { numbers.count }

    /// The gallery that holds the image; setting nil forgets the image.
    subscript(id: ImageID) -> String? {
        get { numbers[id].map { galleryIDs[Int($0)] } }
        set {
            if let newValue {
                numbers[id] = number(of: newValue)
            } else {
                numbers[id] = nil
            }
        }
    }

    /// Places the image in the gallery; returns the gallery it was in before, nil when it was in none.
    @discardableResult
    mutating func updateValue(_ galleryID: String, forKey id: ImageID) -> String? {
        numbers.updateValue(number(of: galleryID), forKey: id).map { galleryIDs[Int($0)] }
    }

    /// The gallery's number, the next one when it has none yet. Images are placed a gallery at a time: the last
    /// gallery's number is tried first, as comparing its id costs less than hashing it.
    private mutating func number(of galleryID: String) -> UInt32 {
        if let lastNumber, galleryIDs[Int(lastNumber)] == galleryID { return lastNumber }
        let number =
            galleryNumbers[galleryID]
            ?? {
                let number = UInt32(galleryIDs.count)
                galleryIDs.append(galleryID)
                galleryNumbers[galleryID] = number
                return number
            }()
        lastNumber = number
        return number
    }
}
