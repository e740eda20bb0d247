import KithPushDelivery
import KithServer
import Testing

@Suite("kith serve settings: flags, then environment, then defaults")
struct ServerSettingsTests {
    @Test("no flag and no variable: the documented defaults (loopback, 7460)")
    func defaults() throws {
        let settings = try ServerSettings(flags: .init(), environment: [:])
        #expect(settings.host == "127.0.0.1")
        #expect(settings.port == 7460)
        #expect(settings.databaseURL == nil)
        #expect(settings.turnSecretFile == nil)
        #expect(settings.limits.maximumConnections == RendezvousServerLimits().maximumConnections)
        #expect(settings.limits.roomLifetimeSeconds == 7 * 86_400)
    }

    @Test("variables apply when no flag is given; empty ones are ignored")
    func environment() throws {
        let settings = try ServerSettings(flags: .init(), environment: [
            "KITH_SERVE_HOST": "0.0.0.0", "KITH_SERVE_PORT": "8080", "KITH_DATABASE_URL": "postgres://u@h/db",
            "KITH_TURN_SECRET_FILE": "/run/secret", "KITH_SERVE_MAX_CONNECTIONS": "500", "KITH_SERVE_ROOM_LIFETIME": "3600",
            "KITH_SERVE_MAX_MESSAGE_BYTES": "8192", "KITH_SERVE_MESSAGE_RATE": "50", "KITH_SERVE_IDLE_TIMEOUT": "30",
            "KITH_SERVE_REQUEST_RATE": "100", "KITH_SERVE_GUESS_RATE": "120",
        ])
        #expect(settings.host == "0.0.0.0")
        #expect(settings.port == 8080)
        #expect(settings.databaseURL == "postgres://u@h/db")
        #expect(settings.turnSecretFile == "/run/secret")
        #expect(settings.limits.maximumConnections == 500)
        #expect(settings.limits.roomLifetimeSeconds == 3_600)
        #expect(settings.limits.maximumMessageBytes == 8_192)
        #expect(settings.limits.messagesPerConnection.perSecond == 50)
        #expect(settings.limits.idleTimeout == .seconds(30))
        #expect(settings.limits.requestsPerSource.perSecond == 100)
        #expect(settings.limits.guessesPerSource.perSecond == 2)
        let empty = try ServerSettings(flags: .init(), environment: ["KITH_SERVE_HOST": "", "KITH_SERVE_PORT": ""])
        #expect(empty.host == "127.0.0.1")
        #expect(empty.port == 7460)
    }

    @Test("a flag wins over its variable")
    func flagsWin() throws {
        var flags = ServerSettings.Flags()
        flags.host = "::1"
        flags.port = 0
        flags.maximumConnections = 10
        flags.databaseURL = "postgres://flag@h/db"
        let settings = try ServerSettings(flags: flags, environment: [
            "KITH_SERVE_HOST": "0.0.0.0", "KITH_SERVE_PORT": "8080", "KITH_SERVE_MAX_CONNECTIONS": "500", "KITH_DATABASE_URL": "postgres://env@h/db",
        ])
        #expect(settings.host == "::1")
        #expect(settings.port == 0)
        #expect(settings.limits.maximumConnections == 10)
        #expect(settings.databaseURL == "postgres://flag@h/db")
    }

    @Test("per-source connections and the whole-request timeout: defaults 64 and 30 s, then variables, then flags")
    func connectionBounds() throws {
        let defaults = try ServerSettings(flags: .init(), environment: [:])
        #expect(defaults.limits.connectionsPerSource == 64)
        #expect(defaults.limits.requestTimeout == .seconds(30))
        let environment = ["KITH_SERVE_MAX_CONNECTIONS_PER_SOURCE": "16", "KITH_SERVE_REQUEST_TIMEOUT": "12"]
        let fromEnvironment = try ServerSettings(flags: .init(), environment: environment)
        #expect(fromEnvironment.limits.connectionsPerSource == 16)
        #expect(fromEnvironment.limits.requestTimeout == .seconds(12))
        var flags = ServerSettings.Flags()
        flags.connectionsPerSource = 200
        flags.requestTimeoutSeconds = 60
        let fromFlags = try ServerSettings(flags: flags, environment: environment)
        #expect(fromFlags.limits.connectionsPerSource == 200)
        #expect(fromFlags.limits.requestTimeout == .seconds(60))
        var zero = ServerSettings.Flags()
        zero.connectionsPerSource = 0
        let refused: [(ServerSettings.Flags, [String: String], ServerSettingsError)] = [
            (.init(), ["KITH_SERVE_REQUEST_TIMEOUT": "1"], .outOfRange(source: "KITH_SERVE_REQUEST_TIMEOUT", value: "1", range: ServerSettings.requestTimeoutRange)),
            (zero, [:], .outOfRange(source: "--max-connections-per-source", value: "0", range: ServerSettings.connectionsPerSourceRange)),
        ]
        for (flags, environment, error) in refused {
            #expect(throws: error) { try ServerSettings(flags: flags, environment: environment) }
        }
    }

    @Test("the slots kept for new sources: an eighth of the node's, none below 8, never all of them")
    func reservedConnections() {
        var limits = RendezvousServerLimits()
        #expect(limits.reservedConnections == 2_500)
        limits.maximumConnections = 7
        #expect(limits.reservedConnections == 0)
        limits.maximumConnections = 8
        #expect(limits.reservedConnections == 1)
        limits.reservedConnectionShare = 1
        #expect(limits.reservedConnections == 7)
        limits.reservedConnectionShare = .nan
        #expect(limits.reservedConnections == 0)
    }

    @Test("out-of-range or non-numeric values are refused, naming the flag or the variable")
    func rejections() throws {
        #expect(throws: ServerSettingsError.outOfRange(source: "KITH_SERVE_PORT", value: "70000", range: ServerSettings.portRange)) {
            try ServerSettings(flags: .init(), environment: ["KITH_SERVE_PORT": "70000"])
        }
        #expect(throws: ServerSettingsError.outOfRange(source: "KITH_SERVE_PORT", value: "http", range: ServerSettings.portRange)) {
            try ServerSettings(flags: .init(), environment: ["KITH_SERVE_PORT": "http"])
        }
        var flags = ServerSettings.Flags()
        flags.maximumMessageBytes = 1_000_000
        #expect(throws: ServerSettingsError.outOfRange(source: "--max-message-bytes", value: "1000000", range: ServerSettings.maximumMessageBytesRange)) {
            try ServerSettings(flags: flags, environment: [:])
        }
        #expect(throws: ServerSettingsError.outOfRange(source: "KITH_SERVE_IDLE_TIMEOUT", value: "0", range: ServerSettings.idleTimeoutRange)) {
            try ServerSettings(flags: .init(), environment: ["KITH_SERVE_IDLE_TIMEOUT": "0"])
        }
        var long = ServerSettings.Flags()
        long.host = String(repeating: "h", count: 300)
        #expect(throws: ServerSettingsError.invalidHost) { try ServerSettings(flags: long, environment: [:]) }
        let message = ServerSettingsError.outOfRange(source: "KITH_SERVE_PORT", value: "x", range: 0...65_535).description
        #expect(message.contains("KITH_SERVE_PORT") && message.contains("65535"))
    }

    @Test("private Web Push endpoints are refused by default whatever the bind address, including loopback (the SSRF of issue 25)")
    func privatePushEndpointsOffByDefault() throws {
        for host in ["127.0.0.1", "::1", "localhost", "0.0.0.0", "::"] {
            var flags = ServerSettings.Flags()
            flags.host = host
            let settings = try ServerSettings(flags: flags, environment: [:])
            #expect(settings.allowPrivatePushEndpoints == false, "host \(host)")
            #expect(settings.webPushEndpointPolicy.allowPrivateAddresses == false, "host \(host)")
            #expect(throws: WebPushEndpointError.privateAddress("127.0.0.1")) { try settings.webPushEndpointPolicy.check("http://127.0.0.1:7460/internal") }
        }
    }

    @Test("--allow-private-push-endpoints or its variable turns the SSRF guard off; the flag wins; a bad value is refused")
    func privatePushEndpointsSwitch() throws {
        var flags = ServerSettings.Flags()
        flags.allowPrivatePushEndpoints = true
        #expect(try ServerSettings(flags: flags, environment: [:]).webPushEndpointPolicy.allowPrivateAddresses)
        for on in ["1", "true", "YES"] {
            #expect(try ServerSettings(flags: .init(), environment: ["KITH_SERVE_ALLOW_PRIVATE_PUSH_ENDPOINTS": on]).allowPrivatePushEndpoints)
        }
        for off in ["0", "false", "no", ""] {
            #expect(try ServerSettings(flags: .init(), environment: ["KITH_SERVE_ALLOW_PRIVATE_PUSH_ENDPOINTS": off]).allowPrivatePushEndpoints == false)
        }
        flags.allowPrivatePushEndpoints = false
        #expect(try ServerSettings(flags: flags, environment: ["KITH_SERVE_ALLOW_PRIVATE_PUSH_ENDPOINTS": "1"]).allowPrivatePushEndpoints == false)
        #expect(throws: ServerSettingsError.invalidSwitch(source: "KITH_SERVE_ALLOW_PRIVATE_PUSH_ENDPOINTS", value: "maybe")) {
            try ServerSettings(flags: .init(), environment: ["KITH_SERVE_ALLOW_PRIVATE_PUSH_ENDPOINTS": "maybe"])
        }
    }
}
