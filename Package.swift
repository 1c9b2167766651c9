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
        // GLib and GObject, gdk-pixbuf and cairo: what pixels and the main loop need, without GTK's widgets.
        .systemLibrary(
            name: "CGLib",
            pkgConfig: "gobject-2.0",
            providers: [.apt(["libglib2.0-dev"])]
        ),
        .systemLibrary(
            name: "CGdkPixbuf",
            pkgConfig: "gdk-pixbuf-2.0",
            providers: [.apt(["libgdk-pixbuf-2.0-dev"])]
        ),
        .systemLibrary(
            name: "CCairo",
            pkgConfig: "cairo",
            providers: [.apt(["libcairo2-dev"])]
        ),
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
        // libwebp's animation decoder (libwebpdemux), for animated WebP a frame at a time: gdk-pixbuf's WebP loader
        // decodes and keeps every frame.
        .systemLibrary(
            name: "CWebP",
            pkgConfig: "libwebpdemux",
            providers: [.apt(["libwebp-dev"])]
        ),
        // Exempi (Adobe's XMP Toolkit with a C API), for the XMP sidecars an export writes beside each image.
        .systemLibrary(
            name: "CExempi",
            pkgConfig: "exempi-2.0",
            providers: [.apt(["libexempi-dev"])]
        ),
        // OpenSSL's headers, for SHA-256 at the processor's speed (its SHA extensions): every kept original is hashed
        // when it is kept and when it is read; and for the protocol a TLS handshake agreed on, which says a server
        // multiplexes before it answers. libcrypto is opened at the first digest (CShim's crypto_library.c) and libssl
        // comes with libcurl: neither is linked.
        .systemLibrary(
            name: "CCrypto",
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
        // libcurl's headers; the library itself is opened at the first download (CShim's curl_library.c), not linked.
        .systemLibrary(
            name: "CCurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // Typed, fixed-arity wrappers for C macros and variadic functions; PNG and image-surface pixels; the
        // decoder process's confinement: no GTK.
        .target(
            name: "CShim", dependencies: ["CGLib", "CGdkPixbuf", "CCairo", "CCurl", "CPNG", "CSeccomp", "CCrypto"]),
        // The C that needs GTK: the application and the gallery canvas (GObject subclasses; the canvas exposes
        // the gallery's cells to AT-SPI), message dialogs, entry completion, images the display reads.
        .target(name: "CGtkShim", dependencies: ["CGtk"]),
        // Model, controller, layout, drop parsing, persistence, undo and gettext: no GTK.
        .target(name: "GalleryCore", dependencies: ["CIntl"]),
        // The thin layer over GLib, GObject, gdk-pixbuf and cairo where pointers, GObject references and signal
        // boxes live: the main loop, pixbufs, surfaces, drawing; no widget.
        .target(name: "GLibKit", dependencies: ["CGLib", "CGdkPixbuf", "CCairo", "CShim", "CWebP"]),
        // The thin layer over GTK on top of it: widgets, GDK's windowing and events, drag and drop, the application.
        .target(name: "GtkKit", dependencies: ["GLibKit", "CGtk", "CGtkShim", "CShim"]),
        // Bytes to pixels off the GTK thread: the job scheduler, HTTP over libcurl's multi interface, the byte
        // source and its cache, thumbnails, decoding with limits; XMP packets; checksums. GLibKit, not GtkKit:
        // it cannot see a widget.
        .target(
            name: "GalleryIO",
            dependencies: ["GalleryCore", "GLibKit", "CGLib", "CCurl", "CShim", "CExempi", "CCrypto"]),
        // msgfmt over data/po at build time, so `swift run` finds the translations.
        .plugin(name: "CompileCatalogs", capability: .buildTool(), path: "Sources/CompileCatalogs"),
        .target(
            name: "ImageGalleryUI", dependencies: ["GalleryCore", "GalleryIO", "GLibKit", "GtkKit"],
            plugins: ["CompileCatalogs"]),
        // Swift's runtime and Foundation linked in, in release builds: their shared libraries' relocated pages are
        // memory every launch pays for. Debug builds and the tests keep the shared ones, which Swift Testing uses.
        .executableTarget(
            name: "image-gallery", dependencies: ["ImageGalleryUI", "GalleryIO"],
            // Compiled so too: its import of Foundation then names the static libraries Foundation needs.
            swiftSettings: [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))],
            linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))]),
        // `swift run -c release gallery-benchmark`: the core's costs at gallery scale.
        .executableTarget(name: "gallery-benchmark", dependencies: ["GalleryCore", "GalleryIO", "GLibKit", "CShim"]),
        .testTarget(name: "GalleryCoreTests", dependencies: ["GalleryCore"]),
        // The app's program is built for these tests too: they decode in its decoder process.
        // CExempi: the tests read the sidecars back with Exempi's parser; CCairo: they read surfaces' pixels.
        .testTarget(
            name: "GalleryIOTests",
            dependencies: ["GalleryIO", "GalleryCore", "GLibKit", "CCairo", "CExempi", "CShim", "image-gallery"]),
    ]
)
