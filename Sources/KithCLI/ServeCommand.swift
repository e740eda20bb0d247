import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithServer
import Logging

/// `kith serve [--port P] [--host H] [--database PATH]`: the rendezvous server (docs/SERVER.md).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run a rendezvous server: pairing by join code and Inviso-compatible WebRTC signaling.",
        discussion: """
            REST (/api/rooms…) and WebSocket signaling (/) share one port. State lives in an SQLite \
            file: --database, else rendezvous.sqlite in the Kith home (created if needed), else a \
            temporary directory. Stops cleanly on SIGINT or SIGTERM. See docs/SERVER.md.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: "TCP port to listen on (0 picks a free one, printed on start).")
    var port: Int = 7460

    @Option(help: "Address to bind; use 0.0.0.0 to serve other machines.")
    var host: String = "127.0.0.1"

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

    func run() async throws {
        try await Output.run {
            guard (0...65_535).contains(port) else { throw KithError.input(.invalid("--port must be between 0 and 65535")) }
            guard (3...3_600).contains(deadNodeAfter) else { throw KithError.input(.invalid("--dead-node-after must be between 3 and 3600 seconds")) }
            let configuration = RendezvousServerConfiguration(host: host, port: port, turn: try turnConfiguration())
            let store: any RendezvousStore
            var fanout: PostgresSignalBus?
            let path: String
            let url = databaseURL ?? ProcessInfo.processInfo.environment["KITH_DATABASE_URL"] ?? ""
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
                    store = shared
                    path = Self.redacted(url)
                } else {
                    store = try SQLiteRendezvousStore.open(path: filePath)
                    path = filePath
                }
            } catch {
                Output.error("kith: error: \(error)")
                throw ExitCode(5)
            }
            let server = RendezvousServer(configuration: configuration, store: store, fanout: fanout)
            let json = global.json
            try await server.run { host, port in
                Self.announce(host: host, port: port, database: path, json: json)
            }
            if !json { Output.error("kith serve: stopped") }
        }
    }

    /// TURN settings from the options (the secret from a file, never from the command line, which other users see).
    private func turnConfiguration() throws -> TURNConfiguration? {
        guard let path = turnSecretFile ?? ProcessInfo.processInfo.environment["KITH_TURN_SECRET_FILE"], !path.isEmpty else {
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
