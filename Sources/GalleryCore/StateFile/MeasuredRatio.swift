/// Whether the shape measured here for an image whose saved ratio was missing may be written into the library.
public enum MeasuredRatio {
    /// Always in the data folder, which no sync tool shares. In a folder the user chose, not when the picture was read
    /// from a file on this computer (a `file://` address, no kept original): the ratio saved back would tell whoever
    /// wrote that address whether the file exists here.
    public static func mayRecord(for image: GalleryImage, libraryIsShareable: Bool) -> Bool {
        guard libraryIsShareable, image.original == nil else { return true }
        return !image.url.prefix(5).lowercased().hasPrefix("file:")
    }
}
