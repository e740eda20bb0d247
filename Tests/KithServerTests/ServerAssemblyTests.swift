import Foundation
import Hummingbird
import HummingbirdTesting
import KithPushDelivery
import KithServer
import Testing

@Suite("kith serve assembled from its settings: store, limits, push, TURN")
struct ServerAssemblyTests {
    /// A fresh directory under the temporary directory, removed by the caller.
    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kith-assembly-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test("the settings' SQLite file, limits and bind address make the server; its rooms persist in that file")
    func sqliteFromSettings() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("rendezvous.sqlite").path
        var flags = ServerSettings.Flags()
        flags.port = 0
        flags.databasePath = path
        flags.maximumConnections = 123
        flags.roomLifetimeSeconds = 3_600
        flags.pushTokenLifetimeSeconds = 7_200
        let settings = try ServerSettings(flags: flags, environment: [:])

        let first = try await ServerAssembly.assemble(settings: settings)
        #expect(first.database == path)
        #expect(first.server.configuration.host == "127.0.0.1")
        #expect(first.server.configuration.port == 0)
        #expect(first.server.configuration.limits.maximumConnections == 123)
        #expect(first.server.configuration.limits.roomLifetimeSeconds == 3_600)
        #expect(first.server.configuration.push.limits.tokenLifetimeSeconds == 7_200)
        #expect(first.server.configuration.turn == nil)
        #expect(first.server.pushDispatcher != nil)
        // Web Push is always configured, with the settings' SSRF guard at registration too.
        #expect(first.server.configuration.push.providers.map(\.kind) == [.webPush])
        #expect(first.server.configuration.push.webPushEndpointPolicy?.allowPrivateAddresses == false)
        // The push store and the VAPID key (owner-only) live beside the database.
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("push.sqlite").path))
        let keyPath = directory.appendingPathComponent("vapid-private.pem").path
        let attributes = try FileManager.default.attributesOfItem(atPath: keyPath)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let key = try Data(contentsOf: URL(fileURLWithPath: keyPath))
        try await first.server.makeApplication().test(.router) { client in
            let created = try await client.create("123456", "dev-a")
            #expect(created.status == 201)
        }
        await first.close()

        // A second server on the same settings finds the pending pairing in the file, and keeps the VAPID key.
        let second = try await ServerAssembly.assemble(settings: settings)
        try await second.server.makeApplication().test(.router) { client in
            let accepted = try await client.accept("123456", "dev-b")
            #expect(accepted.status == 200)
            #expect(accepted.json["roomid"]?.isEmpty == false)
        }
        await second.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: keyPath)) == key)
    }

    @Test("without a database path the stores are in memory and nothing is written")
    func inMemory() async throws {
        var flags = ServerSettings.Flags()
        flags.allowPrivatePushEndpoints = true
        let settings = try ServerSettings(flags: flags, environment: [:])
        let assembly = try await ServerAssembly.assemble(settings: settings)
        #expect(assembly.database == "in memory")
        #expect(assembly.server.configuration.push.webPushEndpointPolicy?.allowPrivateAddresses == true)
        try await assembly.server.makeApplication().test(.router) { client in
            let created = try await client.create("654321", "dev-a")
            #expect(created.status == 201)
            let health = try await client.call(.get, "/health")
            #expect(health.status == 200)
        }
        await assembly.close()
    }

    @Test("TURN comes from the secret file with the settings' URLs and lifetime")
    func turnFromSecretFile() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let secret = directory.appendingPathComponent("turn-secret")
        try Data("0123456789abcdef0123\n".utf8).write(to: secret)
        var flags = ServerSettings.Flags()
        flags.turnSecretFile = secret.path
        flags.turnURIs = ["turn:turn.example.org:3478"]
        flags.turnTTLSeconds = 600
        let assembly = try await ServerAssembly.assemble(settings: try ServerSettings(flags: flags, environment: [:]))
        #expect(assembly.server.configuration.turn?.uris == ["turn:turn.example.org:3478"])
        #expect(assembly.server.configuration.turn?.ttlSeconds == 600)
        await assembly.close()
    }

    @Test("unusable TURN and push settings and an unopenable database are refused with the option named")
    func refusals() async throws {
        func refusal(_ change: (inout ServerSettings.Flags) -> Void) async throws -> ServerAssemblyError? {
            var flags = ServerSettings.Flags()
            change(&flags)
            do {
                let assembly = try await ServerAssembly.assemble(settings: try ServerSettings(flags: flags, environment: [:]))
                await assembly.close()
                return nil
            } catch let error as ServerAssemblyError {
                return error
            }
        }
        #expect(try await refusal { $0.turnURIs = ["turn:example.org"] } == .invalidSetting("--turn-uri needs --turn-secret-file"))
        let missing = try await refusal { $0.turnSecretFile = "/nonexistent/kith-turn-secret" }
        #expect(missing == .invalidSetting("cannot read the TURN secret file /nonexistent/kith-turn-secret (at most 4 KiB)"))
        #expect(try await refusal { $0.pushProviders.apnsKeyFile = "/nonexistent/key.p8" }
            == .invalidSetting("--apns-key needs --apns-key-id, --apns-team-id and --apns-topic"))
        #expect(try await refusal { $0.pushProviders.apnsSandbox = true } == .invalidSetting("the --apns-* options need --apns-key"))
        let store = try await refusal { $0.databasePath = "/nonexistent/kith-dir/rendezvous.sqlite" }
        guard case .store(.openFailed) = store else {
            Issue.record("expected a store error, got \(String(describing: store))")
            return
        }
    }

    @Test("--dead-node-after is bounded, and an SQLite file and a PostgreSQL URL exclude each other")
    func settingsForTheStore() throws {
        #expect(try ServerSettings(flags: .init(), environment: [:]).deadNodeAfterSeconds == 30)
        var flags = ServerSettings.Flags()
        flags.deadNodeAfterSeconds = 2
        #expect(throws: ServerSettingsError.outOfRange(source: "--dead-node-after", value: "2", range: 3...3_600)) {
            try ServerSettings(flags: flags, environment: [:])
        }
        flags = ServerSettings.Flags()
        flags.databasePath = "rendezvous.sqlite"
        #expect(throws: ServerSettingsError.conflictingDatabases) {
            try ServerSettings(flags: flags, environment: ["KITH_DATABASE_URL": "postgres://u@h/db"])
        }
        // An empty URL is no URL: the SQLite file is used.
        flags.databaseURL = ""
        #expect(try ServerSettings(flags: flags, environment: [:]).databasePath == "rendezvous.sqlite")
    }
}
