/// The credentials of the push gateway's APNs and FCM providers (`kith serve --apns-key … --fcm-service-account …`);
/// none by default (Web Push needs none).
public struct PushProviderSettings: Sendable, Equatable {
    /// `--apns-key`: the APNs token-auth key (.p8, PEM).
    public var apnsKeyFile: String?
    /// `--apns-key-id`: the key's 10-character id.
    public var apnsKeyID: String?
    /// `--apns-team-id`: the Apple developer team id.
    public var apnsTeamID: String?
    /// `--apns-topic`: the app's bundle id.
    public var apnsTopic: String?
    /// `--apns-sandbox`: APNs' development environment.
    public var apnsSandbox = false
    /// `--fcm-service-account`: the FCM service-account JSON file.
    public var fcmServiceAccountFile: String?

    /// No APNs or FCM provider.
    public init() {}
}
