import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithPushDelivery
import KithServer
import Logging

/// `kith serve [--port P] [--host H] [--database PATH]`: the rendezvous server (docs/SERVER.md).
/// Every setting also reads from the environment (`KITH_SERVE_*`); a flag wins over its variable.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run a rendezvous server: pairing by join code and Inviso-compatible WebRTC signaling.",
        discussion: """
            REST (/api/rooms…) and WebSocket signaling (/) share one port. State lives in an SQLite \
            file: --database, else rendezvous.sqlite in the Kith home (created if needed), else a \
            temporary directory. Settings also come from the environment (KITH_SERVE_HOST, \
            KITH_SERVE_PORT, KITH_DATABASE_URL, KITH_TURN_SECRET_FILE, KITH_SERVE_MAX_CONNECTIONS, \
            KITH_SERVE_ROOM_LIFETIME, KITH_SERVE_MAX_MESSAGE_BYTES, KITH_SERVE_MESSAGE_RATE, \
            KITH_SERVE_IDLE_TIMEOUT, KITH_SERVE_REQUEST_RATE, KITH_SERVE_GUESS_RATE, KITH_SERVE_NODE_GUESS_RATE, KITH_SERVE_PUBLIC_URL, \
            KITH_SERVE_PUSH_TOKEN_LIFETIME); a flag wins over its variable. The same port serves the push gateway \
            (ChatSecure-Push's /api/v1/) and a self-hosted Web Push service (/push/), state in push.sqlite beside \
            the database (docs/PUSH.md). GET /health, /metrics (Prometheus) and /openapi.json serve operators. On SIGINT or SIGTERM, connected peers \
            get close 1001 (going away) before the server stops. See docs/SERVER.md.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: "TCP port to listen on (0 picks a free one, printed on start; default 7460). Also KITH_SERVE_PORT.")
    var port: Int?

    @Option(help: "Address to bind (default 127.0.0.1); use 0.0.0.0 to serve other machines. Also KITH_SERVE_HOST.")
    var host: String?

    @Option(help: "SQLite database file (default: rendezvous.sqlite in the Kith home).")
    var database: String?

    @Option(help: "PostgreSQL shared by several nodes: postgres://user[:password]@host[:port]/database (TLS off). Also KITH_DATABASE_URL.")
    var databaseURL: String?

    @Option(name: .customLong("dead-node-after"), help: "With --database-url: seconds without a heartbeat after which another node is dead and its members' peers get peer_disconnected (3...3600).")
    var deadNodeAfter: Int = 30

    @Option(help: "File holding the secret shared with a coturn server (use-auth-secret); enables GET /api/turn-credentials. Also KITH_TURN_SECRET_FILE.")
    var turnSecretFile: String?

    @Option(help: "A STUN/TURN URL handed out with TURN credentials (repeat for several), e.g. turn:example.org:3478.")
    var turnURI: [String] = []

    @Option(help: "Lifetime of TURN credentials in seconds (1...86400).")
    var turnTTL: Int = 3_600

    @Option(help: "Signaling connections this node holds (default 20000). Also KITH_SERVE_MAX_CONNECTIONS.")
    var maxConnections: Int?

    @Option(help: "TCP connections one source (an IPv4 address, an IPv6 /64) may hold open; more are closed at accept (default 64). Also KITH_SERVE_MAX_CONNECTIONS_PER_SOURCE.")
    var maxConnectionsPerSource: Int?

    @Option(help: "Seconds an HTTP request has to arrive whole, head and body; a later one gets 408 and is closed (5...3600, default 30). Also KITH_SERVE_REQUEST_TIMEOUT.")
    var requestTimeout: Int?

    @Option(help: "Seconds a room lives after its last join or leave (default 604800). Also KITH_SERVE_ROOM_LIFETIME.")
    var roomLifetime: Int?

    @Option(help: "Largest signaling message in bytes (4096...65536, default 65536). Also KITH_SERVE_MAX_MESSAGE_BYTES.")
    var maxMessageBytes: Int?

    @Option(help: "Signaling messages a second per connection (default 20). Also KITH_SERVE_MESSAGE_RATE.")
    var messageRate: Int?

    @Option(help: "Seconds a connection in no room may stay silent (default 600). Also KITH_SERVE_IDLE_TIMEOUT.")
    var idleTimeout: Int?

    @Option(help: "REST requests a second per source address (default 1, after a burst of 60). Also KITH_SERVE_REQUEST_RATE.")
    var requestRate: Int?

    @Option(help: "Join-code guesses (accepts, checks, creates of a code in use) a minute per source address (default 20). Also KITH_SERVE_GUESS_RATE.")
    var guessRate: Int?

    @Option(help: "Wrong join-code guesses an hour for the whole node, from every source together (default 600; at once too). Also KITH_SERVE_NODE_GUESS_RATE.")
    var nodeGuessRate: Int?

    @Option(help: "Base URL of the push service's endpoints, as subscribers and application servers reach it (default http://HOST:PORT); its origin is the VAPID audience. Also KITH_SERVE_PUBLIC_URL.")
    var publicURL: String?

    @Option(help: "Seconds a push whitelist token lives (3600...31536000, default 2592000 = 30 days). Also KITH_SERVE_PUSH_TOKEN_LIFETIME.")
    var pushTokenLifetime: Int?

    @Flag(help: "Let devices register Web Push endpoints on private, loopback and internal hosts and deliver knocks there (off by default, whatever --host is). For tests and trusted networks only: anyone who can register a device could make the server POST into its network. Also KITH_SERVE_ALLOW_PRIVATE_PUSH_ENDPOINTS=1.")
    var allowPrivatePushEndpoints = false

    @Option(help: "APNs token-auth key (.p8, PEM): knocks to Apple devices. Needs --apns-key-id, --apns-team-id and --apns-topic.")
    var apnsKey: String?

    @Option(help: "The APNs key's 10-character key id.")
    var apnsKeyID: String?

    @Option(help: "The Apple developer team id (10 characters).")
    var apnsTeamID: String?

    @Option(help: "The app's bundle id (the apns-topic).")
    var apnsTopic: String?

    @Flag(help: "Use APNs' sandbox (development builds of the app).")
    var apnsSandbox = false

    @Option(help: "FCM service-account JSON file: knocks to Android devices (FCM HTTP v1).")
    var fcmServiceAccount: String?

    /// The flags as ``ServerSettings/Flags``.
    private var flags: ServerSettings.Flags {
        var flags = ServerSettings.Flags()
        flags.host = host
        flags.port = port
        flags.databaseURL = databaseURL
        flags.turnSecretFile = turnSecretFile
        flags.maximumConnections = maxConnections
        flags.connectionsPerSource = maxConnectionsPerSource
        flags.requestTimeoutSeconds = requestTimeout
        flags.roomLifetimeSeconds = roomLifetime
        flags.maximumMessageBytes = maxMessageBytes
        flags.messagesPerSecond = messageRate
        flags.idleTimeoutSeconds = idleTimeout
        flags.requestsPerSecond = requestRate
        flags.guessesPerMinute = guessRate
        flags.nodeWrongGuessesPerHour = nodeGuessRate
        flags.publicURL = publicURL
        flags.pushTokenLifetimeSeconds = pushTokenLifetime
        flags.allowPrivatePushEndpoints = allowPrivatePushEndpoints ? true : nil
        return flags
    }

    func run() async throws {
        try await Output.run {
            guard (3...3_600).contains(deadNodeAfter) else { throw KithError.input(.invalid("--dead-node-after must be between 3 and 3600 seconds")) }
            let settings: ServerSettings
            do throws(ServerSettingsError) {
                settings = try ServerSettings(flags: flags, environment: ProcessInfo.processInfo.environment)
            } catch {
                throw KithError.input(.invalid(error.description))
            }
            var configuration = RendezvousServerConfiguration(
                host: settings.host, port: settings.port, limits: settings.limits, turn: try turnConfiguration(secretFile: settings.turnSecretFile),
                push: PushConfiguration(providers: [], publicURL: settings.publicURL, limits: settings.pushLimits))
            let store: any RendezvousStore
            let pushStore: any PushStore
            var fanout: PostgresSignalBus?
            let path: String
            let url = settings.databaseURL ?? ""
            if !url.isEmpty, database != nil { throw KithError.input(.invalid("use --database or --database-url, not both")) }
            let filePath = url.isEmpty ? try databasePath() : ""
            do throws(RendezvousStoreError) {
                if !url.isEmpty {
                    let shared = try await PostgresRendezvousStore.open(configuration: try PostgresRendezvousStore.configuration(url: url), nodeID: configuration.nodeID)
                    // Nodes on one database reach each other's connections through LISTEN/NOTIFY.
                    var options = PostgresFanoutOptions()
                    options.deadNodeAfterSeconds = deadNodeAfter
                    options.heartbeatInterval = .seconds(min(5, max(1, deadNodeAfter / 3)))
                    fanout = try await PostgresSignalBus.open(store: shared, nodeID: configuration.nodeID, options: options)
                    pushStore = try await Self.openPush { () async throws(PushStoreError) in try await PostgresPushStore.open(store: shared) }
                    // Messages stored through another node arrive by LISTEN/NOTIFY; a slow poll catches any
                    // notification lost while the listener reconnects.
                    configuration.push.limits.subscriberPollInterval = .seconds(30)
                    store = shared
                    path = Self.redacted(url)
                } else {
                    store = try SQLiteRendezvousStore.open(path: filePath)
                    let pushPath = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("push.sqlite").path
                    pushStore = try await Self.openPush { () async throws(PushStoreError) in try SQLitePushStore.open(path: pushPath) }
                    path = filePath
                }
            } catch {
                Output.error("kith: error: \(error)")
                throw ExitCode(5)
            }
            // One HTTP client for every provider: it never follows a redirect (a push service could otherwise send
            // the gateway to an address its SSRF guard refuses).
            let httpClient = PushHTTPSettings.makeHTTPClient()
            let json = global.json
            do {
                // One SSRF policy, whatever the bind address: registration refuses the Web Push endpoints the
                // provider would refuse on every knock.
                let endpointPolicy = settings.webPushEndpointPolicy
                configuration.push.providers = try providers(endpointPolicy: endpointPolicy, databasePath: filePath, httpClient: httpClient)
                configuration.push.webPushEndpointPolicy = endpointPolicy
                if endpointPolicy.allowPrivateAddresses {
                    Output.error("kith serve: warning: Web Push endpoints on private and loopback addresses are allowed (tests and trusted networks only)")
                }
                let server = RendezvousServer(configuration: configuration, store: store, fanout: fanout, pushStore: pushStore)
                try await server.run { host, port in
                    Self.announce(host: host, port: port, database: path, json: json)
                }
            } catch {
                try? await httpClient.shutdown()
                throw error
            }
            try? await httpClient.shutdown()
            if !json { Output.error("kith serve: stopped") }
        }
    }

    /// Opens the push store, reporting a failure like the rendezvous store's.
    private static func openPush(_ open: () async throws(PushStoreError) -> any PushStore) async throws(RendezvousStoreError) -> any PushStore {
        do throws(PushStoreError) {
            return try await open()
        } catch {
            throw .openFailed(path: "push", reason: error.description)
        }
    }

    /// TURN settings from the options (the secret from a file, never from the command line, which other users see).
    private func turnConfiguration(secretFile: String?) throws -> TURNConfiguration? {
        guard let path = secretFile, !path.isEmpty else {
            guard turnURI.isEmpty else { throw KithError.input(.invalid("--turn-uri needs --turn-secret-file")) }
            return nil
        }
        guard let data = FileManager.default.contents(atPath: path), data.count <= 4096 else {
            throw KithError.input(.invalid("cannot read the TURN secret file \(path) (at most 4 KiB)"))
        }
        let secret = Array(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).utf8)
        do throws(TURNConfiguration.Problem) {
            return try TURNConfiguration(secret: secret, uris: turnURI, ttlSeconds: turnTTL)
        } catch {
            throw KithError.input(.invalid(error.description))
        }
    }

    /// A database URL without its password, for printing.
    private static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? "postgres"
    }

    /// The database file: `--database`, else in the home (created 0700 if absent), else in a
    /// temporary directory.
    private func databasePath() throws -> String {
        if let database, !database.isEmpty { return database }
        let home = global.accountHome.directory
        do {
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            return home.appendingPathComponent("rendezvous.sqlite").path
        } catch {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kith-serve-\(ProcessInfo.processInfo.processIdentifier)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            return directory.appendingPathComponent("rendezvous.sqlite").path
        }
    }

    /// One line with the REST and WebSocket addresses and the database (JSON with --json).
    private static func announce(host: String, port: Int, database: String, json: Bool) {
        let shown = host.contains(":") ? "[\(host)]" : host
        if json {
            Output.json(.object([
                "listening": .string("http://\(shown):\(port)"), "signaling": .string("ws://\(shown):\(port)/"),
                "host": .string(host), "port": .integer(Int64(port)), "database": .string(database),
            ]))
        } else {
            Output.line("kith serve: listening on http://\(shown):\(port) (signaling ws://\(shown):\(port)/), database \(database)")
        }
    }
}
