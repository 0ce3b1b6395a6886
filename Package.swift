// swift-tools-version:6.1
// Streakd: a habit-tracking heatmap and streak service.
// SPDX-License-Identifier: Apache-2.0 (LICENSE)
//
// Dependencies are few on purpose (see README, "Dependencies"): argument parsing,
// logging and a latency histogram. Networking is Dispatch, serialization is the
// system's protobuf-c, storage is the system's SQLite; none of them costs build time in CI.

import PackageDescription

let products: [Product] = [
    .library(name: "StreakCore", targets: ["StreakCore"]),
    .library(name: "StreakFraming", targets: ["StreakFraming"]),
    .library(name: "StreakWire", targets: ["StreakWire"]),
    .library(name: "StreakClient", targets: ["StreakClient"]),
    .executable(name: "streakd", targets: ["streakd"]),
    .executable(name: "streak", targets: ["streak"]),
    .executable(name: "streak-load", targets: ["streak-load"]),
]

let dependencies: [Package.Dependency] = [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
]

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

let argumentParser: Target.Dependency = .product(
    name: "ArgumentParser",
    package: "swift-argument-parser"
)
let logging: Target.Dependency = .product(name: "Logging", package: "swift-log")

let targets: [Target] = [
    // The pure domain core: calendar maths, heatmaps, labels, streaks (and the seeded generator
    // behind sample data and reproducible tests). FoundationEssentials and
    // FoundationInternationalization only (time zones and locales), with the ICU library they
    // ship for one call (a locale's year-month pattern), so the server links no
    // swift-corelibs-foundation.
    .target(
        name: "StreakCore",
        swiftSettings: swiftSettings,
        linkerSettings: [.linkedLibrary("_FoundationICU")]
    ),
    .testTarget(name: "StreakCoreTests", dependencies: ["StreakCore"], swiftSettings: swiftSettings),

    // Length-prefixed framing: preface, frame encoder and decoder. No sockets, no protobuf.
    .target(name: "StreakFraming", swiftSettings: swiftSettings),
    .testTarget(
        name: "StreakFramingTests",
        dependencies: ["StreakFraming", "StreakCore"],
        swiftSettings: swiftSettings
    ),

    // The system's libprotobuf-c runtime.
    .systemLibrary(
        name: "CProtobufC",
        pkgConfig: "libprotobuf-c",
        providers: [.apt(["libprotobuf-c-dev"])]
    ),
    // protoc-c output for proto/ (generated, committed) and a small C shim.
    .target(name: "CStreakProto", dependencies: ["CProtobufC"]),

    // Swift message types and their protobuf encoding through CStreakProto.
    .target(
        name: "StreakWire",
        dependencies: ["StreakCore", "CStreakProto"],
        swiftSettings: swiftSettings
    ),
    .testTarget(
        name: "StreakWireTests",
        dependencies: ["StreakWire", "StreakCore"],
        swiftSettings: swiftSettings
    ),

    // The system's SQLite.
    .systemLibrary(
        name: "CSQLite",
        pkgConfig: "sqlite3",
        providers: [.apt(["libsqlite3-dev"])]
    ),

    // A VFS over SQLite's default one that hands a commit's log writes to the kernel in one write
    // (include/streak_wal_vfs.h).
    .target(name: "CSQLiteWAL", dependencies: ["CSQLite"]),

    // libpq, the PostgreSQL client library, loaded only when a server uses PostgreSQL (Debian's
    // libpq-dev headers; see include/streak_pq.h).
    .target(name: "CPostgres"),

    // Storage behind a protocol; SQLite (WAL, group commit) is the embedded default, PostgreSQL
    // the store that several servers share.
    .target(
        name: "StreakStorage",
        dependencies: ["StreakCore", "StreakPOSIX", "CSQLite", "CSQLiteWAL", "CPostgres"],
        swiftSettings: swiftSettings
    ),
    .testTarget(
        name: "StreakStorageTests",
        dependencies: ["StreakStorage", "StreakCore", "StreakTestSupport"],
        swiftSettings: swiftSettings
    ),

    // What the server needs from the system, without swift-corelibs-foundation: the one
    // retry-on-EINTR loop for system calls, named threads and the condition lock they sleep on,
    // standard streams, path text. Shared by the transport, the store, the client and the tools.
    .target(name: "StreakPOSIX", swiftSettings: swiftSettings),
    .testTarget(name: "StreakPOSIXTests", dependencies: ["StreakPOSIX"], swiftSettings: swiftSettings),

    // epoll(7) for the server's event loops, which the Glibc module does not import.
    .target(name: "CEventPoll"),

    // TLS through the system's OpenSSL (Debian's libssl-dev), linked: a C shim over memory BIOs
    // that the server's event loops, the client and the load generator drive without blocking.
    .target(name: "CTLS", linkerSettings: [.linkedLibrary("ssl"), .linkedLibrary("crypto")]),
    // Contexts, sessions and the server's reloadable certificate over CTLS.
    .target(name: "StreakTLS", dependencies: ["CTLS"], swiftSettings: swiftSettings),
    // Handshakes, reads and writes between two sessions in memory, with certificates made by the
    // openssl command (also run under AddressSanitizer by scripts/test-asan.sh).
    .testTarget(
        name: "StreakTLSTests",
        dependencies: ["StreakTLS", "StreakTestSupport"],
        swiftSettings: swiftSettings
    ),

    // The Dispatch-driven transport: event loops, connections, their state machine and the
    // responder. It knows frames and sockets, not the service (`RequestHandler` is its edge).
    .target(
        name: "StreakTransport",
        dependencies: ["StreakFraming", "StreakPOSIX", "CEventPoll", "StreakTLS", logging],
        swiftSettings: swiftSettings
    ),
    // The transport in-process with an echo handler over real loopback sockets, and its parts alone.
    .testTarget(
        name: "StreakTransportTests",
        dependencies: ["StreakTransport", "StreakFraming", "StreakCore", "StreakTestSupport", logging],
        swiftSettings: swiftSettings
    ),

    // The service: authentication, the users' state and caches, reads, writes, watches, builders.
    .target(
        name: "StreakServer",
        dependencies: ["StreakCore", "StreakFraming", "StreakTransport", "StreakWire", "StreakStorage", logging],
        swiftSettings: swiftSettings
    ),
    // The service's parts unit by unit: caches, error mapping, the token cache, "today".
    .testTarget(
        name: "StreakServerTests",
        dependencies: [
            "StreakServer", "StreakTransport", "StreakFraming", "StreakStorage", "StreakCore", "StreakWire",
        ],
        swiftSettings: swiftSettings
    ),
    // The streakd binary on loopback: every method, its errors, watches, shutdown, durability; the
    // store opened directly to look inside a restored backup.
    .testTarget(
        name: "StreakdTests",
        dependencies: [
            "StreakClient", "StreakWire", "StreakFraming", "StreakCore", "StreakStorage", "StreakTestSupport",
        ],
        swiftSettings: swiftSettings
    ),
    // Test support: starts the built streakd, a small synchronous raw connection, a scripted stand-in.
    .target(
        name: "StreakTestSupport",
        dependencies: ["StreakFraming", "StreakWire", "StreakCore", "StreakTLS"],
        path: "Tests/StreakTestSupport",
        swiftSettings: swiftSettings
    ),

    // The Swift client library: the protocol over a connection, nothing presentational.
    .target(
        name: "StreakClient",
        dependencies: ["StreakCore", "StreakFraming", "StreakWire", "StreakPOSIX", "StreakTLS"],
        swiftSettings: swiftSettings
    ),
    // The library against a real streakd and a scripted stand-in: calls, deadlines, watch reconnects.
    .testTarget(
        name: "StreakClientTests",
        dependencies: ["StreakClient", "StreakCore", "StreakWire", "StreakFraming", "StreakTestSupport"],
        swiftSettings: swiftSettings
    ),

    // The system's zlib (Debian's zlib1g-dev), for the deflated entries of a ZIP archive.
    .systemLibrary(
        name: "CZlib",
        pkgConfig: "zlib",
        providers: [.apt(["zlib1g-dev"])]
    ),

    // The CLI's presentation: terminal renderers, the --json shapes and the seeded sample data;
    // the import readers (Loop Habit Tracker's CSV export, with a small ZIP reader over zlib).
    .target(
        name: "StreakCLI",
        dependencies: ["StreakCore", "StreakWire", "StreakPOSIX", "CZlib"],
        swiftSettings: swiftSettings
    ),
    // Renderers, JSON shapes, input parsing and sample data on hand-built values (no server), and
    // the machine's time zone lookup; the import readers on archives the tests build (zlib deflates).
    .testTarget(
        name: "StreakCLITests",
        dependencies: ["StreakCLI", "StreakCore", "StreakWire", "StreakPOSIX", "CZlib"],
        swiftSettings: swiftSettings
    ),
    // The built `streak` binary against a real streakd, with golden files.
    .testTarget(
        name: "StreakCommandTests",
        dependencies: ["StreakFraming", "StreakTestSupport", "StreakCore", "StreakWire", "StreakPOSIX"],
        resources: [.copy("Golden")],
        swiftSettings: swiftSettings
    ),

    // The server executable.
    .executableTarget(
        name: "streakd",
        dependencies: [
            "StreakServer", "StreakTransport", "StreakStorage", "StreakWire", "StreakPOSIX", "StreakTLS",
            argumentParser,
            logging,
        ],
        swiftSettings: swiftSettings
    ),
    // The command-line client.
    .executableTarget(
        name: "streak",
        dependencies: [
            "StreakClient", "StreakCLI", "StreakCore", "StreakWire", "StreakPOSIX", argumentParser,
        ],
        swiftSettings: swiftSettings
    ),
    // The load generator behind scripts/bench.
    .executableTarget(
        name: "streak-load",
        dependencies: [
            "StreakClient", "StreakPOSIX", "StreakFraming", "StreakWire", "StreakCore", "StreakTLS", "StreakStorage",
            argumentParser, .product(name: "Histogram", package: "hdrhistogram-swift"),
        ],
        swiftSettings: swiftSettings
    ),
    // The SQLite store's group-commit throughput alone, without the server (docs/PERFORMANCE.md).
    .executableTarget(
        name: "streak-storage-bench",
        dependencies: ["StreakStorage", "StreakCore"],
        swiftSettings: swiftSettings
    ),
]

let package = Package(
    name: "streakd",
    products: products,
    dependencies: dependencies,
    targets: targets
)
