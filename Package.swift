// swift-tools-version: 6.1
import PackageDescription

/// Kith: a privacy-first, physical-first messaging engine.
///
/// Modules, lowest first (a module imports only modules above it in this list):
///
///     KithCanonical            strict JSON (RFC 8785 subset), base64url, bounded byte cursor, constant-time comparison
///     KithEd25519              strict RFC 8032 Ed25519 rules (keys, signature encodings)
///     KithConvos               what Convos groups and invites share without MLS: bounded DEFLATE (zlib), the conversation tag
///     KithTerminal             terminal output: escaping untrusted text, QR codes (libqrencode); never linked by an app
///     KithIdentity             seed, derived keys, key vault, contact cards
///     KithFeed                 envelopes, content types, audiences, validation
///     KithRatchet              hybrid X3DH + ML-KEM-768 + Double Ratchet (store protocols, DirectSessions); keyed by KithIdentity's FeedID
///     KithStore                SQLite (GRDB): messages, chains, pending, forks, groups, pools; implements KithRatchet's stores
///     KithMLS                  RFC 9420 core (swift-crypto and KithCanonical only)
///     KithMLSConformance       RFC 9420 vector runners (tests and kith-vectors only)
///     KithTDF                  NanoTDF containers (one-time TDF): bounded codec, ECDH + HKDF, AES-256-GCM
///     KithGroups               groups on MLS through feeds: ids, conversation metadata, the one-history rule (no SQLite)
///     KithInvites              Convos-compatible signed invites: codec, secp256k1 signatures, token, codes and URLs (no MLS)
///     KithSync                 Noise secure link, BLE wire structures, transports, zstd
///     KithPush                 Web Push crypto (RFC 8291 aes128gcm, RFC 8292 VAPID), the ES256 compact JWS, push token values
///     KithContinuity           backups (sealed, streamed, versioned container) and recovery shares (threshold secret sharing)
///     Kith                     facade an app embeds
///     KithNearby               LAN discovery and nearby sync (not in the app library)
///     KithRendezvous           rendezvous protocol (Inviso-compatible REST + WebSocket signaling), its client and the relay transport (on KithSync)
///     KithPushClient           the app's push client: gateway calls, push service subscription and listener
///     KithPushDelivery         PushProvider protocol, Web Push / APNs / FCM providers (server-only)
///     KithServer               `kith serve`: rendezvous server (Hummingbird); its own product, never linked by an app
///     KithDemo                 `kith demo`, the guided tour on throwaway identities
///     KithTestSupport          test helpers on KithCanonical; KithAccountFixtures: accounts that met (tests only)
///     KithCLI (kith)           command-line client
///     KithBench (kith-bench)   benchmark runner
///     KithVectors (kith-vectors), KithExample (kith-example)   MLS vector runner; the getting-started program
let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
]

let package = Package(
    name: "Kith",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "Kith", targets: ["Kith"]),
        .library(name: "KithMLS", targets: ["KithMLS"]),
        .library(name: "KithRendezvous", targets: ["KithRendezvous"]),
        .library(name: "KithServer", targets: ["KithServer"]),
        .executable(name: "kith", targets: ["KithCLI"]),
        .executable(name: "kith-bench", targets: ["KithBench"]),
        .executable(name: "kith-vectors", targets: ["KithVectors"]),
        .executable(name: "kith-example", targets: ["KithExample"]),
        .executable(name: "kith-fuzz", targets: ["KithFuzz"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", exact: "4.5.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        // Convos / XMTP protobuf messages (KithGroups); the generated code is committed (scripts/generate-protos.sh).
        .package(url: "https://github.com/apple/swift-protobuf.git", from: "1.39.0"),
        // `swift package generate-documentation --target Kith` (the DocC catalog in Sources/Kith/Kith.docc).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // Rendezvous: `kith serve` (KithServer) and its client (KithRendezvous).
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),

        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        // `kith serve` metrics: the swift-metrics API and its Prometheus exporter (GET /metrics).
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", exact: "2.4.1"),
    ],
    targets: [
        // MARK: System libraries
        .systemLibrary(
            name: "CZstd",
            path: "Sources/CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"])]
        ),

        // DEFLATE for the Convos appData and invite frames (KithConvos).
        .systemLibrary(
            name: "CZlib",
            path: "Sources/CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),

        // secp256k1 recoverable ECDSA for Convos-compatible signed invites (KithInvites).
        .systemLibrary(
            name: "CSecp256k1",
            path: "Sources/CSecp256k1",
            pkgConfig: "libsecp256k1",
            providers: [.apt(["libsecp256k1-dev"])]
        ),

        .systemLibrary(
            name: "CQREncode",
            path: "Sources/CQREncode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"])]
        ),

        // MARK: Core modules
        .target(
            name: "KithCanonical",
            swiftSettings: swiftSettings
        ),
        // Strict RFC 8032 Ed25519 rules (keys and signature encodings) on top of swift-crypto.
        .target(
            name: "KithEd25519",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "KithIdentity",
            dependencies: [
                "KithCanonical",
                "KithEd25519",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "KithFeed",
            dependencies: [
                "KithCanonical",
                "KithEd25519",
                "KithIdentity",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        // Folders by concern: Database (connection, errors, sealing at rest), Schema (migrations), Feed (ingest, appends,
        // content), Sync, Contacts, Direct (ratchet sessions), Groups, OneTimePools, Push, Blobs; KithStoreTests mirrors them.
        .target(
            name: "KithStore",
            dependencies: [
                "KithCanonical",
                "KithEd25519",
                "KithIdentity",
                "KithFeed",
                "KithRatchet",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "KithRatchet",
            dependencies: [
                "KithCanonical",
                "KithEd25519",
                "KithIdentity",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "KithMLS",
            dependencies: [
                "KithCanonical",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        // Continuity (issue 28): the backup container and recovery shares, pure codecs and crypto, no storage.
        .target(
            name: "KithContinuity",
            dependencies: [
                "KithCanonical",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        // NanoTDF containers for one-time TDF messages (issue 17): codec and crypto, no storage.
        .target(
            name: "KithTDF",
            dependencies: ["KithCanonical", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings
        ),
        // The RFC 9420 vector runners: used by tests and `kith-vectors`, never linked by an app.
        .target(
            name: "KithMLSConformance",
            dependencies: ["KithMLS"],
            swiftSettings: swiftSettings
        ),
        // What Convos groups and Convos invites share, without MLS: the bounded DEFLATE codec and the conversation tag rule.
        .target(
            name: "KithConvos",
            dependencies: ["CZlib"],
            swiftSettings: swiftSettings
        ),
        // Group conversations on MLS carried by feeds: pure logic and codecs; persistence lives in KithStore.
        .target(
            name: "KithGroups",
            dependencies: [
                "KithCanonical", "KithConvos", "KithIdentity", "KithMLS",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            swiftSettings: swiftSettings
        ),
        // Convos-compatible signed invites: payload codec (current and legacy), secp256k1 signatures and the
        // inbox-id binding, the conversation token, invite codes and URLs. No join flow here.
        .target(
            name: "KithInvites",
            dependencies: [
                "KithCanonical", "KithConvos", "KithIdentity", "CSecp256k1",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "KithSync",
            dependencies: [
                "KithCanonical",
                "KithIdentity",
                // libzstd is a system library where the platform has one; elsewhere compression is negotiated away.
                .target(name: "CZstd", condition: .when(platforms: [.linux])),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Kith",
            dependencies: [
                "KithCanonical", "KithEd25519", "KithIdentity", "KithFeed", "KithStore", "KithRatchet", "KithSync", "KithConvos", "KithGroups", "KithMLS", "KithInvites",
                "KithTDF",
                "KithPush",
                "KithContinuity",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),

        // Web Push crypto for push knocks (issue 16): RFC 8291 aes128gcm payloads, RFC 8292 VAPID,
        // ChatSecure-Push token values. Pure values on swift-crypto; no server, no HTTP.
        .target(
            name: "KithPush",
            dependencies: [
                "KithCanonical",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),

        // Push delivery for the gateway of `kith serve` (issue 16): the PushProvider protocol and its
        // Web Push, APNs and FCM implementations over async-http-client. Server-only: an app never links it.
        .target(
            name: "KithPushDelivery",
            dependencies: [
                "KithPush",
                "KithCanonical",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings
        ),

        // The push client an app uses (issue 16): the ChatSecure-compatible gateway calls and the push service
        // subscription and WebSocket listener (RFC 8291 decryption). No server or terminal code.
        .target(
            name: "KithPushClient",
            dependencies: [
                "KithPush", "KithCanonical", "KithFeed",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),

        .target(
            name: "KithTestSupport",
            dependencies: ["KithCanonical", .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio")],
            swiftSettings: swiftSettings
        ),
        // Facade-level test fixtures (accounts that met), shared by KithTests and KithNearbyTests.
        .target(
            name: "KithAccountFixtures",
            dependencies: ["Kith", "KithIdentity"],
            swiftSettings: swiftSettings
        ),
        // LAN discovery (UDP multicast beacons) and nearby sync: out of the app library, so an app
        // that uses its platform's own transports does not link it.
        .target(
            name: "KithNearby",
            dependencies: [
                "Kith", "KithCanonical", "KithIdentity", "KithStore", "KithSync",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // Terminal-only output (escaping untrusted text, QR codes): used by the CLI, never by `Kith`.
        .target(
            name: "KithTerminal",
            dependencies: ["CQREncode"],
            swiftSettings: swiftSettings
        ),
        // `kith demo`: the guided tour on throwaway identities (not part of the app library).
        .target(
            name: "KithDemo",
            dependencies: ["Kith", "KithCanonical", "KithIdentity", "KithFeed", "KithStore", "KithSync", "KithTerminal", "KithGroups", "KithRendezvous", "KithInvites", "KithPush", "KithPushClient", "KithContinuity"],
            swiftSettings: swiftSettings
        ),

        // MARK: Rendezvous
        // Inviso-compatible rendezvous protocol values, their bounded codec and the client an app uses
        // (REST over AsyncHTTPClient, signaling over HummingbirdWSClient): no server code.
        .target(
            name: "KithRendezvous",
            dependencies: [
                "KithCanonical", "KithSync", "KithTDF", "KithContinuity",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // `kith serve`: rooms by join code and WebSocket signaling (Hummingbird 2); storage behind
        // RendezvousStore (SQLite by default). Its own product: no app and no lower module imports it.
        .target(
            name: "KithServer",
            dependencies: [
                "KithRendezvous", "KithCanonical", "KithInvites", "KithPush", "KithPushDelivery",
                // The push providers' HTTP client, which ServerAssembly makes and closes.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                // PBKDF2 for the push gateway's account passwords.
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // TLS for every connection (kith serve --tls-cert/--tls-key).
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                // NIO's WebSocket upgrader and frame codec for signaling on channel handlers.
                .product(name: "NIOWebSocket", package: "swift-nio"),
                // NIOThreadPool for the gateway's password hashing.
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            // The OpenAPI document's fragments (OpenAPIDocument), compiled into the binary: no resource bundle to ship.
            resources: [
                "openapi.json", "openapi-rooms.json", "openapi-rendezvous-schemas.json", "openapi-push-accounts-tokens.json",
                "openapi-push-devices-apns-gcm.json", "openapi-push-webpush-service.json", "openapi-push-schemas.json",
            ].map { Resource.embedInCode("Resources/OpenAPI/\($0)") },
            swiftSettings: swiftSettings
        ),

        // MARK: Executables
        .executableTarget(
            name: "KithCLI",
            dependencies: [
                "Kith", "KithDemo", "KithNearby", "KithCanonical", "KithIdentity", "KithFeed", "KithStore", "KithSync", "KithTerminal", "KithGroups", "KithInvites",
                "KithServer", "KithRendezvous", "KithTDF", "KithPush", "KithPushClient", "KithPushDelivery", "KithContinuity",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "KithBench",
            dependencies: [
                "Kith", "KithCanonical", "KithIdentity", "KithEd25519", "KithFeed", "KithStore", "KithRatchet", "KithMLS", "KithSync", "KithConvos", "KithGroups", "KithTDF",
                "KithInvites", "KithTerminal", "CQREncode", "KithServer", "KithRendezvous", "KithPush", "KithPushDelivery", "KithContinuity",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // The documentation's getting-started program: public API only (no @testable), built and run in CI.
        .executableTarget(
            name: "KithExample",
            dependencies: ["Kith", "KithFeed", "KithSync"],
            path: "Examples/GettingStarted",
            swiftSettings: swiftSettings
        ),
        // Fuzz targets over every decoder that sees outside bytes (Fuzz/README.md); `kith-fuzz` runs them under
        // libFuzzer when built by scripts/fuzz.sh, and replays corpora otherwise.
        .target(
            name: "KithFuzzTargets",
            dependencies: [
                "Kith", "KithCanonical", "KithFeed", "KithIdentity", "KithSync", "KithRatchet", "KithMLS", "KithGroups", "KithInvites", "KithTDF",
                "KithPush", "KithRendezvous", "KithContinuity", "KithStore",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "KithFuzz",
            dependencies: ["KithFuzzTargets"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "KithVectors",
            dependencies: ["KithMLS", "KithMLSConformance"],
            swiftSettings: swiftSettings
        ),

        // MARK: Tests
        .testTarget(
            name: "KithCanonicalTests",
            dependencies: ["KithTestSupport", 
                "KithCanonical",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KithEd25519Tests",
            dependencies: ["KithTestSupport", "KithEd25519", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KithNearbyTests",
            dependencies: ["KithNearby", "KithAccountFixtures", "Kith", "KithSync"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KithDemoTests",
            dependencies: [
                "KithDemo", "Kith", "KithServer", "KithPush", "KithPushDelivery", "KithPushClient", "KithTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KithTerminalTests",
            dependencies: ["KithTerminal"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KithIdentityTests",
            dependencies: ["KithTestSupport", "KithIdentity", "KithTerminal"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KithFeedTests",
            dependencies: ["KithTestSupport", 
                "KithFeed",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KithStoreTests",
            dependencies: [
                "KithStore", "KithRatchet",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KithRatchetTests",
            dependencies: ["KithTestSupport", "KithIdentity",
                "KithRatchet",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KithMLSTests",
            dependencies: ["KithTestSupport", "KithMLS", "KithMLSConformance", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KithContinuityTests",
            dependencies: ["KithTestSupport", "KithContinuity", "KithStore", "KithFeed", "KithCanonical", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KithTDFTests",
            dependencies: ["KithTestSupport", "KithTDF", "KithCanonical", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KithGroupsTests",
            dependencies: ["KithTestSupport", "KithConvos", "KithGroups", "KithMLS", "KithFeed", "KithIdentity"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KithInvitesTests",
            dependencies: ["KithTestSupport", "KithInvites", "KithIdentity", "KithCanonical", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KithSyncTests",
            dependencies: ["KithTestSupport", "KithCanonical",
                "KithIdentity",
                "KithSync",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KithFuzzTargetsTests",
            dependencies: ["KithFuzzTargets", "KithTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KithRendezvousTests",
            dependencies: ["KithRendezvous", "KithCanonical", "KithSync", "KithTDF", "KithContinuity", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KithServerTests",
            dependencies: [
                "KithServer", "KithRendezvous", "KithCanonical", "KithSync", "KithIdentity", "KithInvites", "KithTestSupport", "KithTDF",
                "KithContinuity",
                "KithPush", "KithPushDelivery",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KithPushTests",
            dependencies: ["KithPush", "KithCanonical", "KithTestSupport", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KithPushClientTests",
            dependencies: [
                "KithPushClient", "KithPush", "KithCanonical",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KithPushDeliveryTests",
            dependencies: [
                "KithPushDelivery", "KithPush", "KithCanonical",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            // The mock server's test-only certificate, embedded in MockTLS.swift; the files serve openssl and Interop/push-delivery.
            exclude: ["Support/README.md", "Support/mock.crt", "Support/mock.key"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KithTests",
            dependencies: ["KithTestSupport", "KithAccountFixtures", "Kith", "KithSync", "KithStore", "KithFeed", "KithIdentity", "KithRatchet", "KithInvites", "KithTDF", "KithPush", "KithContinuity"],
            swiftSettings: swiftSettings
        ),
    ]
)
