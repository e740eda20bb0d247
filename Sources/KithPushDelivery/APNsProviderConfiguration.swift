import Crypto
import Foundation

/// The settings of an ``APNsProvider``: the token-signing key and its ids, the app's bundle id, the
/// APNs host, the JWT refresh interval and HTTP limits.
public struct APNsProviderConfiguration: Sendable {
    /// Apple's two APNs environments.
    public enum Environment: String, Sendable, CaseIterable {
        /// `api.push.apple.com`, for App Store and TestFlight builds.
        case production
        /// `api.sandbox.push.apple.com`, for development builds.
        case sandbox

        /// The host of the environment.
        public var host: String {
            switch self {
            case .production: "api.push.apple.com"
            case .sandbox: "api.sandbox.push.apple.com"
            }
        }
    }

    /// Apple rejects provider tokens older than an hour (`403 ExpiredProviderToken`).
    public static let maxTokenAgeSeconds: Int64 = 3_600
    /// Apple answers `429 TooManyProviderTokenUpdates` when tokens change more often than every 20 minutes.
    public static let minTokenAgeSeconds: Int64 = 1_200

    /// The .p8 token-signing key (P-256).
    public var signingKey: P256.Signing.PrivateKey
    /// The key's 10-character id (the JWT header's `kid`).
    public var keyID: String
    /// The 10-character team id (the JWT's `iss`).
    public var teamID: String
    /// The app's bundle id (`apns-topic`).
    public var bundleID: String
    /// The APNs host (production, sandbox or a test mock).
    public var host: String
    /// The APNs port (443; Apple also listens on 2197).
    public var port: Int
    /// A provider token is reused for this many seconds, then replaced: 1,200…3,540 (default 50 minutes).
    public var tokenRefreshSeconds: Int64
    /// The fixed, generic text of high-priority (alert) knocks; never message content.
    public var alertText: String
    /// Request deadline and response body cap.
    public var http: PushHTTPSettings
    /// The clock for `iat`, `apns-expiration` and token age.
    public var clock: PushClock

    /// Creates a configuration.
    ///
    /// - Throws: ``PushConfigurationError/invalidSetting(name:reason:)`` for ids that are not 10
    ///   uppercase letters or digits, an empty or malformed bundle id, a bad port, a refresh interval
    ///   outside 20…59 minutes, or an alert text that is empty or longer than 64 bytes.
    public init(
        signingKey: P256.Signing.PrivateKey,
        keyID: String,
        teamID: String,
        bundleID: String,
        environment: Environment = .production,
        host: String? = nil,
        port: Int = 443,
        tokenRefreshSeconds: Int64 = 3_000,
        alertText: String = "New activity",
        http: PushHTTPSettings = PushHTTPSettings(),
        clock: PushClock = .system
    ) throws(PushConfigurationError) {
        try Self.checkAppleID(keyID, name: "apns key id")
        try Self.checkAppleID(teamID, name: "apns team id")
        let bundleAllowed: (Character) -> Bool = { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }
        guard !bundleID.isEmpty, bundleID.utf8.count <= 155, bundleID.allSatisfy(bundleAllowed) else {
            throw .invalidSetting(name: "apns bundle id", reason: "must be a bundle id such as org.example.App (letters, digits, '.', '-')")
        }
        let resolvedHost = host ?? environment.host
        guard !resolvedHost.isEmpty, resolvedHost.utf8.count <= 253,
              resolvedHost.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }) else {
            throw .invalidSetting(name: "apns host", reason: "must be a host name or IPv4 address")
        }
        guard (1...65_535).contains(port) else { throw .invalidSetting(name: "apns port", reason: "must be 1…65535") }
        guard tokenRefreshSeconds >= Self.minTokenAgeSeconds, tokenRefreshSeconds < Self.maxTokenAgeSeconds - 60 else {
            throw .invalidSetting(name: "apns token refresh", reason: "must be \(Self.minTokenAgeSeconds)…\(Self.maxTokenAgeSeconds - 61) seconds (reuse ≥ 20 min, refresh before 60 min)")
        }
        guard !alertText.isEmpty, alertText.utf8.count <= 64 else {
            throw .invalidSetting(name: "apns alert text", reason: "must be 1…64 bytes of fixed, generic text")
        }
        self.signingKey = signingKey
        self.keyID = keyID
        self.teamID = teamID
        self.bundleID = bundleID
        self.host = resolvedHost
        self.port = port
        self.tokenRefreshSeconds = tokenRefreshSeconds
        self.alertText = alertText
        self.http = http
        self.clock = clock
    }

    /// Reads an APNs token-signing key: the PEM text of Apple's `AuthKey_<kid>.p8` (PKCS#8, P-256).
    ///
    /// - Throws: ``PushConfigurationError/invalidPrivateKey(what:reason:)``.
    public static func signingKey(fromPEM text: String) throws(PushConfigurationError) -> P256.Signing.PrivateKey {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix("-----BEGIN") else {
            throw .invalidPrivateKey(what: "APNs .p8 key", reason: "not PEM (expected -----BEGIN PRIVATE KEY-----)")
        }
        do { return try P256.Signing.PrivateKey(pemRepresentation: trimmed) } catch {
            throw .invalidPrivateKey(what: "APNs .p8 key", reason: "PEM is not a P-256 private key")
        }
    }

    /// Loads the .p8 key from a file and builds a configuration.
    ///
    /// - Throws: ``PushConfigurationError``.
    public static func load(
        keyFile path: String, keyID: String, teamID: String, bundleID: String,
        environment: Environment = .production
    ) throws(PushConfigurationError) -> APNsProviderConfiguration {
        let key = try signingKey(fromPEM: PushCredentialFile.read(path))
        return try APNsProviderConfiguration(signingKey: key, keyID: keyID, teamID: teamID, bundleID: bundleID, environment: environment)
    }

    private static func checkAppleID(_ value: String, name: String) throws(PushConfigurationError) {
        guard value.utf8.count == 10, value.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }) else {
            throw .invalidSetting(name: name, reason: "must be 10 uppercase letters or digits, as shown in the Apple developer account")
        }
    }
}
