// swift-tools-version: 6.0
import PackageDescription

// One module per box of the data flow (see README): the HTTP layer knows nothing of tabs,
// the model, views and rasterizer are pure, and the app wires them together.
let package = Package(
    name: "TabStage",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "tabstage", targets: ["tabstage"])
    ],
    targets: [
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // Not through pkg-config: Debian's hiredis.pc adds -D_FILE_OFFSET_BITS=64, a flag SwiftPM
        // drops with a warning on every build. The header sits in /usr/include/hiredis and the
        // library is linked by name (Sources/CHiredis/module.modulemap); neither needs the flag.
        .systemLibrary(
            name: "CHiredis",
            providers: [.apt(["libhiredis-dev"])]
        ),
        // QR codes of follow links, encoded by Debian's libqrencode: its header only, the library
        // opened at run time (Sources/QRCode/QRCodeLibrary.swift), so that no binary needs it.
        .systemLibrary(
            name: "CQRencode",
            providers: [.apt(["libqrencode-dev"])]
        ),
        .target(name: "ContentHash"),
        // The version and commit `make dist` links into the binary (see Sources/BuildStamp).
        // DWARF 4 like the Swift modules: valgrind 3.19 (bench/http-callgrind.sh) gives up on a
        // binary with any DWARF 5 in it, which clang writes by default.
        .target(name: "BuildStamp", cSettings: [.unsafeFlags(["-gdwarf-4"])]),
        // Bytes read as ASCII text (hex digits, percent escapes), below every module that parses some.
        .target(name: "ASCII"),
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD", "ContentHash", "ASCII"]),
        .target(name: "HTTPTesting", dependencies: ["HTTPServer"]),
        // Redis and nginx processes of a test's own, for the tests of several instances.
        .target(name: "ServiceTesting"),
        // The sRGB colour of tints, page shades and icons: below the model, the views and the rasterizer.
        .target(name: "Colour", dependencies: ["ASCII"]),
        .target(name: "TabModel", dependencies: ["Colour", "ASCII"]),
        .target(name: "Metrics"),
        // SVG path data parsed, and flattened to line segments in device pixels.
        .target(name: "PathGeometry", swiftSettings: optimizedInDebug),
        // PNG files written and read, over zlib and deflate writers of their own.
        .target(name: "PNGCodec", dependencies: ["CZlib"], swiftSettings: optimizedInDebug),
        .target(name: "Rasterizer", dependencies: ["PathGeometry", "PNGCodec", "Colour"], swiftSettings: optimizedInDebug),
        .target(
            name: "IconCatalog", dependencies: ["PathGeometry", "PNGCodec", "Rasterizer", "TabModel"],
            swiftSettings: optimizedInDebug),
        .target(name: "Views", dependencies: ["Colour", "TabModel", "ASCII"]),
        // A QR code's modules, from libqrencode; drawn by Views.
        .target(name: "QRCode", dependencies: ["CQRencode"]),
        // A Redis client of the project's own: connections, their pool, typed commands, scripts.
        .target(name: "RedisClient", dependencies: ["CHiredis", "ASCII"]),
        .target(name: "Sessions", dependencies: ["TabModel", "CSQLite", "RedisClient", "ASCII"]),
        // The web application: its controllers, the request context, live pages.
        .target(
            name: "TabStageApp",
            dependencies: [
                "HTTPServer", "Colour", "TabModel", "PathGeometry", "Rasterizer", "IconCatalog", "Views", "Sessions",
                "Metrics", "QRCode", "ContentHash",
            ],
            plugins: ["EmbedPublicFiles"]
        ),
        // HTTP snapshot tests of request lists, replayed against the application in process.
        .target(
            name: "Snapshots",
            dependencies: [
                "HTTPServer", "TabModel", "Views", "Sessions", "TabStageApp", "PNGCodec", "ASCII", "HTTPTesting",
            ]),
        // The command line: serve, check, icon, snapshot.
        .target(
            name: "TabStageCLI",
            dependencies: [
                "HTTPServer", "Colour", "TabModel", "PathGeometry", "Rasterizer", "IconCatalog", "Views", "Sessions",
                "RedisClient", "Metrics", "TabStageApp", "Snapshots", "BuildStamp", "QRCode", "HTTPTesting",
            ]),
        // Public/ compiled into the binary (see Plugins/EmbedPublicFiles).
        .executableTarget(name: "embed-public-files", dependencies: ["ContentHash"]),
        .plugin(name: "EmbedPublicFiles", capability: .buildTool(), dependencies: ["embed-public-files"]),
        .executableTarget(name: "tabstage", dependencies: ["TabStageCLI"]),
        .executableTarget(
            name: "tabstage-bench", dependencies: ["PathGeometry", "PNGCodec", "Rasterizer", "IconCatalog"]),
        .executableTarget(name: "pages-bench", dependencies: ["TabModel", "Views"]),
        .executableTarget(name: "sessions-bench", dependencies: ["Sessions", "TabModel"]),
        // Pictures the project draws for itself with its rasterizer: the example app's screens and
        // the icon sheet of the docs (scripts/example-screens, scripts/icon-sheet).
        .target(
            name: "DrawnPictures", dependencies: ["Colour", "PathGeometry", "Rasterizer", "IconCatalog", "TabModel"],
            swiftSettings: optimizedInDebug),
        .executableTarget(name: "draw-pictures", dependencies: ["DrawnPictures"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "HTTPTesting"]),
        .testTarget(name: "ColourTests", dependencies: ["Colour"]),
        .testTarget(name: "TabModelTests", dependencies: ["TabModel"]),
        .testTarget(name: "PNGCodecTests", dependencies: ["PNGCodec"]),
        .testTarget(
            name: "RasterizerTests",
            dependencies: [
                "Colour", "PathGeometry", "PNGCodec", "Rasterizer", "IconCatalog", "CZlib", "DrawnPictures",
            ],
            exclude: ["Fixtures"]),
        .testTarget(name: "ViewsTests", dependencies: ["Colour", "Views"]),
        .testTarget(name: "QRCodeTests", dependencies: ["QRCode"]),
        .testTarget(name: "RedisClientTests", dependencies: ["RedisClient", "ServiceTesting"]),
        .testTarget(
            name: "SessionsTests", dependencies: ["Sessions", "RedisClient", "TabModel", "CSQLite", "ServiceTesting"]),
        .testTarget(
            name: "TabStageAppTests",
            dependencies: [
                "TabStageApp", "Snapshots", "TabStageCLI", "HTTPTesting", "Views", "Sessions", "TabModel", "ServiceTesting",
                "HTTPServer", "QRCode",
            ],
            // Snapshot files are read at run time from beside the sources, not bundled.
            exclude: ["__Snapshots__"]),
    ],
    swiftLanguageModes: [.v6]
)

/// The pixel loops (paths flattened, coverage, blur, deflate) run millions of times per picture:
/// optimized in debug builds too, where the tests and the debug server draw every icon.
var optimizedInDebug: [SwiftSetting] { [.unsafeFlags(["-O"], .when(configuration: .debug))] }
