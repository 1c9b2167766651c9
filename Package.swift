// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ImageGallery",
    products: [
        .executable(name: "image-gallery", targets: ["image-gallery"]),
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
        // gettext, from glibc (no pkg-config file, nothing to install).
        .systemLibrary(name: "CIntl"),
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // Typed, fixed-arity wrappers for C macros and variadic functions, and the
        // small GObject subclass that exposes the gallery's cells to AT-SPI.
        .target(name: "CShim", dependencies: ["CGtk", "CCurl", "CPNG"]),
        // Model, controller, layout, drop parsing, persistence, undo and gettext: no GTK.
        .target(name: "GalleryCore", dependencies: ["CIntl"]),
        // The thin layer where pointers, GObject references and signal boxes live.
        .target(name: "GtkKit", dependencies: ["CGtk", "CCurl", "CShim", "GalleryCore"]),
        // msgfmt over data/po at build time, so `swift run` finds the translations.
        .plugin(name: "CompileCatalogs", capability: .buildTool(), path: "Sources/CompileCatalogs"),
        .target(name: "ImageGalleryUI", dependencies: ["GalleryCore", "GtkKit"], plugins: ["CompileCatalogs"]),
        .executableTarget(name: "image-gallery", dependencies: ["ImageGalleryUI"]),
        // `swift run -c release gallery-benchmark`: the core's costs at gallery scale.
        .executableTarget(name: "gallery-benchmark", dependencies: ["GalleryCore"]),
        .testTarget(name: "GalleryCoreTests", dependencies: ["GalleryCore"]),
    ]
)
