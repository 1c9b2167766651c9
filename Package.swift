// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "ImageGallery",
    products: [
        .executable(name: "image-gallery", targets: ["image-gallery"])
    ],
    // Diagnostics the benchmarks use, built only when asked (`swift build -c release --traits StallLog`).
    traits: [
        .trait(name: "StallLog", description: "Logs main-loop stalls to $IMAGE_GALLERY_STALL_LOG, for benchmarks.")
    ],
    targets: [
        .systemLibrary(
            name: "CGtk",
            pkgConfig: "gtk+-3.0",
            providers: [.apt(["libgtk-3-dev"])]
        ),
        // libpng itself, for decoding large PNGs a few rows at a time (gdk-pixbuf decodes them whole) and
        // for writing thumbnails unfiltered and stored.
        .systemLibrary(
            name: "CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        // Exempi (Adobe's XMP Toolkit with a C API), for the XMP sidecars an export writes beside each image.
        .systemLibrary(
            name: "CExempi",
            pkgConfig: "exempi-2.0",
            providers: [.apt(["libexempi-dev"])]
        ),
        // OpenSSL's libcrypto (libcurl's already), for SHA-256 at the processor's speed (its SHA extensions):
        // every kept original is hashed when it is kept and when it is read.
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // gettext, from glibc (no pkg-config file, nothing to install).
        .systemLibrary(name: "CIntl"),
        // libseccomp, for the decoder process's system-call filter: it knows every architecture's call numbers and
        // refuses calls made through another architecture's entry (x32, i386), which a hand-written filter must not miss.
        .systemLibrary(
            name: "CSeccomp",
            pkgConfig: "libseccomp",
            providers: [.apt(["libseccomp-dev"])]
        ),
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // Typed, fixed-arity wrappers for C macros and variadic functions, and the
        // small GObject subclass that exposes the gallery's cells to AT-SPI.
        .target(name: "CShim", dependencies: ["CGtk", "CCurl", "CPNG", "CSeccomp"]),
        // Model, controller, layout, drop parsing, persistence, undo and gettext: no GTK.
        .target(name: "GalleryCore", dependencies: ["CIntl"]),
        // The thin layer over GTK, GLib, cairo and gdk-pixbuf where pointers, GObject references and signal boxes live.
        .target(name: "GtkKit", dependencies: ["CGtk", "CShim"]),
        // Bytes to pixels off the GTK thread: the job scheduler, HTTP over libcurl's multi interface, the byte
        // source and its cache, thumbnails, decoding with limits; XMP packets; checksums.
        .target(
            name: "GalleryIO", dependencies: ["GalleryCore", "GtkKit", "CCurl", "CShim", "CExempi", "CCrypto", "CGtk"]),
        // msgfmt over data/po at build time, so `swift run` finds the translations.
        .plugin(name: "CompileCatalogs", capability: .buildTool(), path: "Sources/CompileCatalogs"),
        .target(
            name: "ImageGalleryUI", dependencies: ["GalleryCore", "GalleryIO", "GtkKit"], plugins: ["CompileCatalogs"]),
        .executableTarget(name: "image-gallery", dependencies: ["ImageGalleryUI", "GalleryIO"]),
        // `swift run -c release gallery-benchmark`: the core's costs at gallery scale.
        .executableTarget(name: "gallery-benchmark", dependencies: ["GalleryCore", "GalleryIO"]),
        .testTarget(name: "GalleryCoreTests", dependencies: ["GalleryCore"]),
        // The app's program is built for these tests too: they decode in its decoder process.
        // CExempi: the tests read the sidecars back with Exempi's parser.
        .testTarget(
            name: "GalleryIOTests", dependencies: ["GalleryIO", "GalleryCore", "GtkKit", "CExempi", "image-gallery"]),
    ]
)
