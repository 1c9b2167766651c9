/// The fields of an image's details that few images have (merged copies, a newer version's fields): behind one
/// reference, so that an image without them pays 8 bytes rather than 32.
final class ImageDetailsRarities: Hashable, Sendable {
    let mergedCopies: [MergedCopy]
    let unknownFields: [String: RawJSON]
    let originUnknownFields: [String: RawJSON]
    let originalUnknownFields: [String: RawJSON]

    /// Nil when every one is empty.
    init?(
        mergedCopies: [MergedCopy], unknownFields: [String: RawJSON], originUnknownFields: [String: RawJSON],
        originalUnknownFields: [String: RawJSON]
    ) {
        guard
            !mergedCopies.isEmpty || !unknownFields.isEmpty || !originUnknownFields.isEmpty
                || !originalUnknownFields.isEmpty
        else { return nil }
        self.mergedCopies = mergedCopies
        self.unknownFields = unknownFields
        self.originUnknownFields = originUnknownFields
        self.originalUnknownFields = originalUnknownFields
    }

    static func == (left: ImageDetailsRarities, right: ImageDetailsRarities) -> Bool {
        left === right
            || (left.mergedCopies == right.mergedCopies && left.unknownFields == right.unknownFields
                && left.originUnknownFields == right.originUnknownFields
                && left.originalUnknownFields == right.originalUnknownFields)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(mergedCopies)
        hasher.combine(unknownFields)
        hasher.combine(originUnknownFields)
        hasher.combine(originalUnknownFields)
    }
}
