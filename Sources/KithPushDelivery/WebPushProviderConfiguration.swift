import Foundation
import Crypto
import KithCanonical
import KithPush

/// The settings of a ``WebPushProvider``: the VAPID identity, token lifetimes, the endpoint policy and HTTP limits.
public struct WebPushProviderConfiguration: Sendable {
    /// The application server's VAPID signer (its P-256 key is the `applicationServerKey` subscribers may restrict to).
    public var signer: VAPIDSigner
    /// The VAPID `sub` claim, a `mailto:` or `https:` contact for push service operators; nil omits it.
    public var subject: String?
    /// How long a VAPID JWT is valid (`exp` = signing time + this), 60…86,400 s; default 12 h.
    public var tokenLifetimeSeconds: Int64
    /// A cached JWT is replaced once fewer than this many seconds of validity remain; default 1 h.
    public var tokenRefreshMarginSeconds: Int64
    /// Which endpoints may be reached (SSRF guard); by default private and loopback hosts are refused.
    public var endpointPolicy: WebPushEndpointPolicy
    /// Request deadline and response body cap.
    public var http: PushHTTPSettings
    /// The clock for `exp` and the token cache.
    public var clock: PushClock
    /// Resolves endpoint DNS names for the SSRF check when private addresses are not allowed.
    public var hostResolver: any WebPushHostResolver

    /// Creates a configuration.
    ///
    /// - Throws: ``PushConfigurationError/invalidSetting(name:reason:)`` for a subject that is not a
    ///   `mailto:`/`https:` URI, a lifetime outside 60…86,400 s or a margin not below the lifetime.
    public init(
        signer: VAPIDSigner,
        subject: String?,
        tokenLifetimeSeconds: Int64 = 43_200,
        tokenRefreshMarginSeconds: Int64 = 3_600,
        endpointPolicy: WebPushEndpointPolicy = WebPushEndpointPolicy(),
        http: PushHTTPSettings = PushHTTPSettings(),
        clock: PushClock = .system,
        hostResolver: any WebPushHostResolver = SystemWebPushHostResolver()
    ) throws(PushConfigurationError) {
        if let subject {
            guard subject.hasPrefix("mailto:") || subject.hasPrefix("https:"), subject.utf8.count <= PushLimits.maxVAPIDClaimBytes else {
                throw .invalidSetting(name: "vapid subject", reason: "must be a mailto: or https: URI of at most \(PushLimits.maxVAPIDClaimBytes) bytes")
            }
        }
        guard tokenLifetimeSeconds >= 60, tokenLifetimeSeconds <= PushLimits.maxVAPIDLifetimeSeconds else {
            throw .invalidSetting(name: "vapid token lifetime", reason: "must be 60…\(PushLimits.maxVAPIDLifetimeSeconds) seconds (RFC 8292 §2)")
        }
        guard tokenRefreshMarginSeconds >= 0, tokenRefreshMarginSeconds < tokenLifetimeSeconds else {
            throw .invalidSetting(name: "vapid refresh margin", reason: "must be 0 or more and below the token lifetime")
        }
        self.signer = signer
        self.subject = subject
        self.tokenLifetimeSeconds = tokenLifetimeSeconds
        self.tokenRefreshMarginSeconds = tokenRefreshMarginSeconds
        self.endpointPolicy = endpointPolicy
        self.http = http
        self.clock = clock
        self.hostResolver = hostResolver
    }

    /// Reads a VAPID private key: a PEM P-256 key (`BEGIN PRIVATE KEY` PKCS#8 or `BEGIN EC PRIVATE KEY`
    /// SEC 1) or the 32-byte private scalar as unpadded base64url (py-vapid / pywebpush's raw form).
    ///
    /// - Throws: ``PushConfigurationError/invalidPrivateKey(what:reason:)``.
    public static func vapidSigningKey(from text: String) throws(PushConfigurationError) -> P256.Signing.PrivateKey {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("-----BEGIN") {
            do { return try P256.Signing.PrivateKey(pemRepresentation: trimmed) } catch {
                throw .invalidPrivateKey(what: "VAPID key", reason: "PEM is not a P-256 private key (PKCS#8 or SEC 1)")
            }
        }
        let raw: [UInt8]
        do { raw = try Base64URL.decode(trimmed, expectedLength: 32) } catch {
            throw .invalidPrivateKey(what: "VAPID key", reason: "neither PEM nor a 32-byte base64url private scalar")
        }
        do { return try P256.Signing.PrivateKey(rawRepresentation: raw) } catch {
            throw .invalidPrivateKey(what: "VAPID key", reason: "the scalar is not a valid P-256 private key")
        }
    }

    /// Loads the VAPID key from a file (see ``vapidSigningKey(from:)``) and builds a configuration with defaults.
    ///
    /// - Throws: ``PushConfigurationError``.
    public static func load(
        vapidKeyFile path: String,
        subject: String?,
        allowPrivateAddresses: Bool = false
    ) throws(PushConfigurationError) -> WebPushProviderConfiguration {
        let key = try vapidSigningKey(from: PushCredentialFile.read(path))
        return try WebPushProviderConfiguration(
            signer: VAPIDSigner(signingKey: key), subject: subject,
            endpointPolicy: WebPushEndpointPolicy(allowPrivateAddresses: allowPrivateAddresses)
        )
    }
}
