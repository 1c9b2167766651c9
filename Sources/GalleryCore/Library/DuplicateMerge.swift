/// Copies of one picture made one image: `kept` stays where it is and takes in what each of `merged` knew (its
/// address and origin, its note, its tags); the merged images leave their galleries. `GalleryLibrary.merge`
/// applies a list of them as one undo step.
public struct DuplicateMerge: Hashable, Sendable {
    public var kept: ImageID
    public var merged: [ImageID]

    public init(kept: ImageID, merged: [ImageID]) {
        self.kept = kept
        self.merged = merged
    }

    /// The merge of copies that keeps the best of them (`CopyQuality`, the first of equals); nil for fewer than two.
    public init?(keepingBestOf copies: [GalleryImage], quality: (GalleryImage) -> CopyQuality = CopyQuality.init) {
        guard copies.count > 1, let best = Self.best(of: copies, quality: quality) else { return nil }
        self.init(kept: best.id, merged: copies.map(\.id).filter { $0 != best.id })
    }

    /// The best of copies of one picture: the first of those whose quality is highest.
    public static func best(
        of copies: [GalleryImage], quality: (GalleryImage) -> CopyQuality = CopyQuality.init
    ) -> GalleryImage? {
        var best: (image: GalleryImage, quality: CopyQuality)?
        for copy in copies {
            let measured = quality(copy)
            if best == nil || best!.quality < measured { best = (copy, measured) }
        }
        return best?.image
    }

    /// `kept` with what `others` know: each one's address and origin among its merged copies (the first
    /// `MergedCopy.maximumPerImage` of them), the origin's fields `kept` lacks, every note (each once) and every tag
    /// (each once, in order).
    public static func merged(_ kept: GalleryImage, with others: [GalleryImage]) -> GalleryImage {
        var result = kept
        var copies = kept.mergedCopies
        var addresses = Set([kept.url] + copies.map(\.url))
        for other in others {
            for copy in [MergedCopy(url: other.url, origin: other.origin)] + other.mergedCopies
            where copies.count < MergedCopy.maximumPerImage && addresses.insert(copy.url).inserted {
                copies.append(copy)
            }
        }
        result.mergedCopies = copies
        let origins = others.compactMap(\.origin)
        if !origins.isEmpty {
            var origin = kept.origin ?? ImageOrigin()
            let texts: [WritableKeyPath<ImageOrigin, String?>] = [
                \.link, \.page, \.altText, \.title, \.browserDescription, \.added,
            ]
            for path in texts where origin[keyPath: path] == nil {
                origin[keyPath: path] = origins.lazy.compactMap { $0[keyPath: path] }.first
            }
            if origin.arrival == nil { origin.arrival = origins.lazy.compactMap(\.arrival).first }
            result.origin = origin
        }
        var notes: [String] = []
        for note in ([kept] + others).compactMap(\.note) where !note.isEmpty && !notes.contains(note) {
            notes.append(note)
        }
        result.note = notes.isEmpty ? kept.note : notes.joined(separator: "\n\n")
        result.tags = TagName.unique(([kept] + others).flatMap(\.tags))
        var fields = kept.unknownFields
        for other in others { fields.merge(other.unknownFields) { mine, _ in mine } }
        result.unknownFields = fields
        return result
    }
}
