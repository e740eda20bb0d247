import KithCanonical

/// This identity's registration for push knocks: the gateway account and the push service
/// subscription that wakes this device (docs/PUSH-CLIENT.md). The URLs are stored in clear; every
/// field of ``secrets`` is sealed.
public struct PushRegistrationRecord: Sendable, Equatable {
    /// The gateway's base URL (`…/api/v1/` is under it), e.g. `http://127.0.0.1:8080`.
    public var gatewayURL: String
    /// The push service's base URL (where `/push/subscriptions` lives).
    public var pushServiceURL: String
    /// The anonymous gateway account's username.
    public var accountUsername: String
    /// What must stay secret.
    public var secrets: PushRegistrationSecrets
    /// When the registration was stored, in milliseconds since 1970.
    public var registeredAt: Int64

    /// Creates a record.
    public init(gatewayURL: String, pushServiceURL: String, accountUsername: String, secrets: PushRegistrationSecrets, registeredAt: Int64) {
        self.gatewayURL = gatewayURL
        self.pushServiceURL = pushServiceURL
        self.accountUsername = accountUsername
        self.secrets = secrets
        self.registeredAt = registeredAt
    }
}

/// The secret half of a push registration, sealed as one value in SQLite. ``description`` never
/// prints a secret.
public struct PushRegistrationSecrets: Sendable, Equatable, CustomStringConvertible {
    /// The gateway account's password (to log in again when the auth token is lost).
    public var accountPassword: String
    /// The gateway's `Authorization: Token …` value.
    public var authToken: String
    /// The Web Push device's id at the gateway.
    public var deviceID: String
    /// The push endpoint (a capability URL: whoever holds it can push to this device).
    public var endpoint: String
    /// The subscription secret (reads and deletes the subscription at the push service).
    public var subscriptionSecret: String
    /// The RFC 8291 receiver's P-256 private scalar (32 bytes).
    public var receiverPrivateKey: [UInt8]
    /// The RFC 8291 authentication secret (16 bytes).
    public var receiverAuthSecret: [UInt8]

    /// Creates the secrets.
    public init(
        accountPassword: String, authToken: String, deviceID: String, endpoint: String, subscriptionSecret: String,
        receiverPrivateKey: [UInt8], receiverAuthSecret: [UInt8]
    ) {
        self.accountPassword = accountPassword
        self.authToken = authToken
        self.deviceID = deviceID
        self.endpoint = endpoint
        self.subscriptionSecret = subscriptionSecret
        self.receiverPrivateKey = receiverPrivateKey
        self.receiverAuthSecret = receiverAuthSecret
    }

    /// Redacted.
    public var description: String { "PushRegistrationSecrets(redacted)" }

    /// The canonical JSON that gets sealed.
    var sealedForm: [UInt8] {
        var object = JSONObject()
        object["account_password"] = .string(accountPassword)
        object["auth_token"] = .string(authToken)
        object["device_id"] = .string(deviceID)
        object["endpoint"] = .string(endpoint)
        object["subscription_secret"] = .string(subscriptionSecret)
        object["receiver_private_key"] = .string(Base64URL.encode(receiverPrivateKey))
        object["receiver_auth_secret"] = .string(Base64URL.encode(receiverAuthSecret))
        return CanonicalJSON.serialize(object)
    }

    /// Reads the sealed form back (after the seal opened, so the bytes are this store's own).
    init(sealedForm bytes: [UInt8]) throws(StoreError) {
        let limits = JSONLimits(maxBytes: 8_192, maxDepth: 2, maxStringBytes: 4_096, maxContainerElements: 16, maxTotalValues: 16)
        guard let object = (try? CanonicalJSON.parse(bytes, limits: limits))?.objectValue,
              let password = object["account_password"]?.stringValue, let token = object["auth_token"]?.stringValue,
              let device = object["device_id"]?.stringValue, let endpoint = object["endpoint"]?.stringValue,
              let secret = object["subscription_secret"]?.stringValue,
              let keyText = object["receiver_private_key"]?.stringValue, let key = try? Base64URL.decode(keyText, expectedLength: 32),
              let authText = object["receiver_auth_secret"]?.stringValue, let auth = try? Base64URL.decode(authText, expectedLength: 16) else {
            throw .sealedValueUnreadable("push registration (damaged)")
        }
        self.init(accountPassword: password, authToken: token, deviceID: device, endpoint: endpoint, subscriptionSecret: secret,
                  receiverPrivateKey: key, receiverAuthSecret: auth)
    }
}
