import KithPushDelivery
import KithRendezvous

/// The settings of `kith serve` from its flags and the environment: a flag wins over its
/// variable, a variable over the documented default (`docs/SERVER.md`, "Configuration").
///
/// ```swift
/// var flags = ServerSettings.Flags()
/// flags.port = 8080
/// let settings = try ServerSettings(flags: flags, environment: ProcessInfo.processInfo.environment)
/// ```
public struct ServerSettings: Sendable {
    /// Values given on the command line (nil: not given).
    public struct Flags: Sendable, Equatable {
        /// `--host`.
        public var host: String?
        /// `--port`.
        public var port: Int?
        /// `--database-url`.
        public var databaseURL: String?
        /// `--turn-secret-file`.
        public var turnSecretFile: String?
        /// `--tls-cert`: the certificate chain (PEM) to serve HTTPS and WSS with.
        public var tlsCertificateFile: String?
        /// `--tls-key`: its private key (PEM).
        public var tlsKeyFile: String?
        /// `--max-connections`.
        public var maximumConnections: Int?
        /// `--max-connections-per-source`.
        public var connectionsPerSource: Int?
        /// `--request-timeout` (seconds).
        public var requestTimeoutSeconds: Int?
        /// `--room-lifetime` (seconds).
        public var roomLifetimeSeconds: Int?
        /// `--max-message-bytes`.
        public var maximumMessageBytes: Int?
        /// `--message-rate` (messages a second per connection).
        public var messagesPerSecond: Int?
        /// `--idle-timeout` (seconds).
        public var idleTimeoutSeconds: Int?
        /// `--request-rate` (REST requests a second per source).
        public var requestsPerSecond: Int?
        /// `--guess-rate` (accepts and checks a minute per source).
        public var guessesPerMinute: Int?
        /// `--node-guess-rate` (wrong guesses an hour for the whole node).
        public var nodeWrongGuessesPerHour: Int?
        /// `--public-url` (base URL of the push service's endpoints).
        public var publicURL: String?
        /// `--push-token-lifetime` (seconds a whitelist token lives).
        public var pushTokenLifetimeSeconds: Int?
        /// `--allow-private-push-endpoints` (nil: not given, the variable decides).
        public var allowPrivatePushEndpoints: Bool?
        /// `--database` (the SQLite file; no variable).
        public var databasePath: String?
        /// `--dead-node-after` (seconds; no variable).
        public var deadNodeAfterSeconds: Int?
        /// `--turn-uri`, repeated (no variable).
        public var turnURIs: [String] = []
        /// `--turn-ttl` (seconds; no variable).
        public var turnTTLSeconds: Int?
        /// `--apns-*` and `--fcm-service-account` (no variables).
        public var pushProviders = PushProviderSettings()

        /// No flag given.
        public init() {}
    }

    /// The environment variable of each setting.
    public enum Variable: String, Sendable, CaseIterable {
        /// Bind address.
        case host = "KITH_SERVE_HOST"
        /// TCP port.
        case port = "KITH_SERVE_PORT"
        /// PostgreSQL URL.
        case databaseURL = "KITH_DATABASE_URL"
        /// File holding the TURN shared secret.
        case turnSecretFile = "KITH_TURN_SECRET_FILE"
        /// Certificate chain (PEM) for TLS.
        case tlsCertificateFile = "KITH_SERVE_TLS_CERT"
        /// Private key (PEM) for TLS.
        case tlsKeyFile = "KITH_SERVE_TLS_KEY"
        /// Signaling connections one node holds.
        case maximumConnections = "KITH_SERVE_MAX_CONNECTIONS"
        /// TCP connections one source address (an IPv6 /64) may hold open.
        case connectionsPerSource = "KITH_SERVE_MAX_CONNECTIONS_PER_SOURCE"
        /// Seconds an HTTP request has to arrive whole.
        case requestTimeoutSeconds = "KITH_SERVE_REQUEST_TIMEOUT"
        /// Seconds a room lives after its last join or leave.
        case roomLifetimeSeconds = "KITH_SERVE_ROOM_LIFETIME"
        /// Largest signaling message in bytes.
        case maximumMessageBytes = "KITH_SERVE_MAX_MESSAGE_BYTES"
        /// Signaling messages a second per connection.
        case messagesPerSecond = "KITH_SERVE_MESSAGE_RATE"
        /// Seconds a connection in no room may stay silent.
        case idleTimeoutSeconds = "KITH_SERVE_IDLE_TIMEOUT"
        /// REST requests a second per source address.
        case requestsPerSecond = "KITH_SERVE_REQUEST_RATE"
        /// Accepts and checks (the calls that guess codes) a minute per source address.
        case guessesPerMinute = "KITH_SERVE_GUESS_RATE"
        /// Wrong join-code guesses an hour for the whole node, from every source together.
        case nodeWrongGuessesPerHour = "KITH_SERVE_NODE_GUESS_RATE"
        /// Public base URL of the push service (`https://push.example.org`).
        case publicURL = "KITH_SERVE_PUBLIC_URL"
        /// Seconds a push whitelist token lives.
        case pushTokenLifetimeSeconds = "KITH_SERVE_PUSH_TOKEN_LIFETIME"
        /// Whether Web Push endpoints on private, loopback and internal hosts are allowed (`1`/`true`/`yes` or `0`/`false`/`no`).
        case allowPrivatePushEndpoints = "KITH_SERVE_ALLOW_PRIVATE_PUSH_ENDPOINTS"
    }

    /// Address to bind (default 127.0.0.1).
    public var host: String
    /// TCP port (default 7460; 0 picks a free one).
    public var port: Int
    /// PostgreSQL URL, if any (else the SQLite file).
    public var databaseURL: String?
    /// The SQLite database file (`--database`), used when ``databaseURL`` is empty; nil: an in-memory database
    /// (`kith serve` fills in `rendezvous.sqlite` in the Kith home). `push.sqlite` and the VAPID key live beside it.
    public var databasePath: String?
    /// With ``databaseURL``: seconds without a heartbeat after which another node is dead (default 30).
    public var deadNodeAfterSeconds: Int
    /// File holding the TURN shared secret, if any.
    public var turnSecretFile: String?
    /// The certificate chain (PEM) and private key (PEM) to serve everything over TLS with (HTTPS, WSS); nil: plain
    /// HTTP, for loopback or behind a TLS-terminating reverse proxy.
    public var tls: (certificateFile: String, keyFile: String)? {
        guard let tlsCertificateFile, let tlsKeyFile else { return nil }
        return (tlsCertificateFile, tlsKeyFile)
    }
    /// `--tls-cert`, if given.
    public var tlsCertificateFile: String?
    /// `--tls-key`, if given.
    public var tlsKeyFile: String?
    /// STUN/TURN URLs handed out with TURN credentials (they need ``turnSecretFile``).
    public var turnURIs: [String]
    /// Lifetime of TURN credentials in seconds (default 3600; 1...86400, checked when the secret file is read).
    public var turnTTLSeconds: Int
    /// The credentials of the APNs and FCM providers (none by default).
    public var pushProviders: PushProviderSettings
    /// Bounds and timings.
    public var limits: RendezvousServerLimits
    /// Base URL of the push service's endpoints, if given (else `http://<host>:<port>`).
    public var publicURL: String?
    /// Bounds and timings of the push gateway and push service.
    public var pushLimits: PushServerLimits
    /// Whether the gateway may register and deliver to Web Push endpoints on private, loopback,
    /// link-local and internal hosts (default `false`, whatever `host` is). Only for tests and
    /// trusted networks: with it, anyone who can register a device makes the server POST into
    /// its own network.
    public var allowPrivatePushEndpoints: Bool

    /// The SSRF guard of Web Push endpoints, checked at registration and again (after DNS
    /// resolution) at every delivery: private addresses only with ``allowPrivatePushEndpoints``.
    /// Independent of the bind address: a server on loopback behind a reverse proxy is as exposed
    /// as one on `0.0.0.0`.
    public var webPushEndpointPolicy: WebPushEndpointPolicy {
        WebPushEndpointPolicy(allowPrivateAddresses: allowPrivatePushEndpoints)
    }

    /// Accepted ports.
    public static let portRange = 0...65_535
    /// Accepted connection maximums.
    public static let maximumConnectionsRange = 1...1_000_000
    /// Accepted per-source connection limits.
    public static let connectionsPerSourceRange = 1...1_000_000
    /// Accepted request timeouts.
    public static let requestTimeoutRange = 5...3_600
    /// Accepted room lifetimes (one minute to 90 days).
    public static let roomLifetimeRange = 60...(90 * 86_400)
    /// Accepted signaling message limits (never above the protocol's own).
    public static let maximumMessageBytesRange = 4_096...RendezvousLimits.maximumSignalingMessageBytes
    /// Accepted per-connection message rates.
    public static let messagesPerSecondRange = 1...10_000
    /// Accepted idle timeouts.
    public static let idleTimeoutRange = 10...86_400
    /// Accepted REST request rates.
    public static let requestsPerSecondRange = 1...100_000
    /// Accepted guess rates.
    public static let guessesPerMinuteRange = 1...100_000
    /// Accepted node-wide wrong-guess rates (an hour).
    public static let nodeWrongGuessesPerHourRange = 1...1_000_000
    /// Accepted dead-node thresholds (seconds).
    public static let deadNodeAfterRange = 3...3_600
    /// Accepted whitelist token lifetimes (one hour to a year).
    public static let pushTokenLifetimeRange = 3_600...(365 * 86_400)

    /// Resolves every setting: the flag if given, else its variable if set and not empty, else the default.
    public init(flags: Flags, environment: [String: String]) throws(ServerSettingsError) {
        func variable(_ name: Variable) -> String? {
            guard let value = environment[name.rawValue], !value.isEmpty else { return nil }
            return value
        }
        func number(_ flag: Int?, _ name: Variable, _ flagName: String, _ range: ClosedRange<Int>) throws(ServerSettingsError) -> Int? {
            if let flag {
                guard range.contains(flag) else { throw .outOfRange(source: flagName, value: String(flag), range: range) }
                return flag
            }
            guard let text = variable(name) else { return nil }
            guard let value = Int(text), range.contains(value) else {
                throw .outOfRange(source: name.rawValue, value: String(text.prefix(32)), range: range)
            }
            return value
        }
        host = flags.host ?? variable(.host) ?? RendezvousLimits.defaultHost
        guard !host.isEmpty, host.utf8.count <= 255 else { throw .invalidHost }
        port = try number(flags.port, .port, "--port", Self.portRange) ?? RendezvousLimits.defaultPort
        databaseURL = flags.databaseURL ?? variable(.databaseURL)
        if let url = databaseURL, !url.isEmpty, flags.databasePath != nil { throw .conflictingDatabases }
        databasePath = flags.databasePath
        deadNodeAfterSeconds = flags.deadNodeAfterSeconds ?? 30
        guard Self.deadNodeAfterRange.contains(deadNodeAfterSeconds) else {
            throw .outOfRange(source: "--dead-node-after", value: String(deadNodeAfterSeconds), range: Self.deadNodeAfterRange)
        }
        turnSecretFile = flags.turnSecretFile ?? variable(.turnSecretFile)
        tlsCertificateFile = flags.tlsCertificateFile ?? variable(.tlsCertificateFile)
        tlsKeyFile = flags.tlsKeyFile ?? variable(.tlsKeyFile)
        guard (tlsCertificateFile == nil) == (tlsKeyFile == nil) else { throw .incompleteTLS }
        turnURIs = flags.turnURIs
        turnTTLSeconds = flags.turnTTLSeconds ?? 3_600
        pushProviders = flags.pushProviders
        var limits = RendezvousServerLimits()
        if let value = try number(flags.maximumConnections, .maximumConnections, "--max-connections", Self.maximumConnectionsRange) {
            limits.maximumConnections = value
        }
        if let value = try number(flags.connectionsPerSource, .connectionsPerSource, "--max-connections-per-source", Self.connectionsPerSourceRange) {
            limits.connectionsPerSource = value
        }
        if let value = try number(flags.requestTimeoutSeconds, .requestTimeoutSeconds, "--request-timeout", Self.requestTimeoutRange) {
            limits.requestTimeout = .seconds(value)
        }
        // 0 means Inviso's "until purged".
        if flags.roomLifetimeSeconds == 0 || (flags.roomLifetimeSeconds == nil && variable(.roomLifetimeSeconds) == "0") {
            limits.roomLifetimeSeconds = RendezvousServerLimits.roomLifetimeUntilPurged
        } else if let value = try number(flags.roomLifetimeSeconds, .roomLifetimeSeconds, "--room-lifetime", Self.roomLifetimeRange) {
            limits.roomLifetimeSeconds = value
        }
        if let value = try number(flags.maximumMessageBytes, .maximumMessageBytes, "--max-message-bytes", Self.maximumMessageBytesRange) {
            limits.maximumMessageBytes = value
        }
        if let value = try number(flags.messagesPerSecond, .messagesPerSecond, "--message-rate", Self.messagesPerSecondRange) {
            limits.messagesPerConnection = RateLimitRule(burst: max(limits.messagesPerConnection.burst, Double(value) * 3), perSecond: Double(value))
        }
        if let value = try number(flags.idleTimeoutSeconds, .idleTimeoutSeconds, "--idle-timeout", Self.idleTimeoutRange) {
            limits.idleTimeout = .seconds(value)
        }
        if let value = try number(flags.requestsPerSecond, .requestsPerSecond, "--request-rate", Self.requestsPerSecondRange) {
            limits.requestsPerSource = RateLimitRule(burst: max(limits.requestsPerSource.burst, Double(value) * 3), perSecond: Double(value))
        }
        if let value = try number(flags.guessesPerMinute, .guessesPerMinute, "--guess-rate", Self.guessesPerMinuteRange) {
            limits.guessesPerSource = RateLimitRule(burst: max(limits.guessesPerSource.burst, Double(value)), perSecond: Double(value) / 60)
        }
        if let value = try number(flags.nodeWrongGuessesPerHour, .nodeWrongGuessesPerHour, "--node-guess-rate", Self.nodeWrongGuessesPerHourRange) {
            limits.wrongGuessesPerNode = RateLimitRule(burst: Double(value), perSecond: Double(value) / 3_600)
        }
        self.limits = limits
        var pushLimits = PushServerLimits()
        if let value = try number(flags.pushTokenLifetimeSeconds, .pushTokenLifetimeSeconds, "--push-token-lifetime", Self.pushTokenLifetimeRange) {
            pushLimits.tokenLifetimeSeconds = value
        }
        self.pushLimits = pushLimits
        if let flag = flags.allowPrivatePushEndpoints {
            allowPrivatePushEndpoints = flag
        } else if let text = variable(.allowPrivatePushEndpoints) {
            switch text.lowercased() {
            case "1", "true", "yes": allowPrivatePushEndpoints = true
            case "0", "false", "no": allowPrivatePushEndpoints = false
            default: throw .invalidSwitch(source: Variable.allowPrivatePushEndpoints.rawValue, value: String(text.prefix(32)))
            }
        } else {
            allowPrivatePushEndpoints = false
        }
        if let url = flags.publicURL ?? variable(.publicURL) {
            var trimmed = url
            while trimmed.hasSuffix("/") { trimmed.removeLast() }
            let rest = trimmed.hasPrefix("https://") ? trimmed.dropFirst(8) : trimmed.hasPrefix("http://") ? trimmed.dropFirst(7) : nil
            guard let rest, !rest.isEmpty, !rest.hasPrefix("/"), trimmed.utf8.count <= 200,
                  !trimmed.contains(where: { $0.isWhitespace || $0 == "?" || $0 == "#" || $0 == "@" }) else { throw .invalidPublicURL }
            publicURL = trimmed
        } else {
            publicURL = nil
        }
    }
}

/// A setting of `kith serve` that cannot be used.
public enum ServerSettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A number outside its range, from a flag or a variable (`source` names which).
    case outOfRange(source: String, value: String, range: ClosedRange<Int>)
    /// An empty or overlong bind address.
    case invalidHost
    /// A public URL that is not `http(s)://host[:port][/path]`.
    case invalidPublicURL
    /// An on/off variable that is neither `1`/`true`/`yes` nor `0`/`false`/`no` (`source` names it).
    case invalidSwitch(source: String, value: String)
    /// Both an SQLite file (`--database`) and a PostgreSQL URL.
    case conflictingDatabases
    /// A TLS certificate without its key, or a key without its certificate.
    case incompleteTLS

    /// One sentence naming the setting and what it accepts.
    public var description: String {
        switch self {
        case .outOfRange(let source, let value, let range):
            "\(source) must be a whole number from \(range.lowerBound) to \(range.upperBound) (got \"\(value)\")"
        case .invalidHost:
            "the bind address (--host or KITH_SERVE_HOST) must be a host name or IP address of at most 255 bytes"
        case .invalidPublicURL:
            "the public URL (--public-url or KITH_SERVE_PUBLIC_URL) must be http(s)://host[:port][/path], at most 200 bytes, without query or credentials"
        case .invalidSwitch(let source, let value):
            "\(source) must be 1, true or yes (on) or 0, false or no (off) (got \"\(value)\")"
        case .conflictingDatabases:
            "use --database or --database-url, not both"
        case .incompleteTLS:
            "TLS needs both --tls-cert and --tls-key (or KITH_SERVE_TLS_CERT and KITH_SERVE_TLS_KEY)"
        }
    }
}
