/// The settings of an ``FCMProvider``: the service account, the API base URL and HTTP limits.
public struct FCMProviderConfiguration: Sendable {
    /// Google's FCM API.
    public static let defaultBaseURL = "https://fcm.googleapis.com"
    /// The OAuth scope FCM HTTP v1 requires.
    public static let scope = "https://www.googleapis.com/auth/firebase.messaging"
    /// FCM keeps messages at most 28 days.
    public static let maxTimeToLiveSeconds = 2_419_200

    /// The service account whose OAuth tokens authorize sends.
    public var serviceAccount: FCMServiceAccount
    /// The API base URL without a trailing slash (`https://fcm.googleapis.com`, or a test mock).
    public var baseURL: String
    /// An access token is replaced this many seconds before it expires (default 5 minutes).
    public var accessTokenRefreshMarginSeconds: Int64
    /// Request deadline and response body cap (for both the token endpoint and the send API).
    public var http: PushHTTPSettings
    /// The clock for assertions and token expiry.
    public var clock: PushClock

    /// Creates a configuration.
    ///
    /// - Throws: ``PushConfigurationError/invalidSetting(name:reason:)`` for a base URL that is not
    ///   http(s) or ends with '/', or a negative or over-an-hour refresh margin.
    public init(
        serviceAccount: FCMServiceAccount,
        baseURL: String = FCMProviderConfiguration.defaultBaseURL,
        accessTokenRefreshMarginSeconds: Int64 = 300,
        http: PushHTTPSettings = PushHTTPSettings(),
        clock: PushClock = .system
    ) throws(PushConfigurationError) {
        guard baseURL.hasPrefix("https://") || baseURL.hasPrefix("http://"), !baseURL.hasSuffix("/"), baseURL.utf8.count <= 512,
              baseURL.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .invalidSetting(name: "fcm base url", reason: "must be an http(s) URL without a trailing '/'")
        }
        guard (0...3_000).contains(accessTokenRefreshMarginSeconds) else {
            throw .invalidSetting(name: "fcm token refresh margin", reason: "must be 0…3000 seconds")
        }
        self.serviceAccount = serviceAccount
        self.baseURL = baseURL
        self.accessTokenRefreshMarginSeconds = accessTokenRefreshMarginSeconds
        self.http = http
        self.clock = clock
    }

    /// Loads a service-account key file and builds a configuration with the default base URL.
    ///
    /// - Throws: ``PushConfigurationError``.
    public static func load(serviceAccountFile path: String) throws(PushConfigurationError) -> FCMProviderConfiguration {
        try FCMProviderConfiguration(serviceAccount: FCMServiceAccount.parse(json: PushCredentialFile.read(path)))
    }
}
