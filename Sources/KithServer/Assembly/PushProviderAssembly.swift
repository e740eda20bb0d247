import AsyncHTTPClient
import Crypto
import Foundation
import KithPush
import KithPushDelivery

/// The push providers of `kith serve`: Web Push always, APNs and FCM when ``ServerSettings/pushProviders`` names
/// their credentials. A half-configured provider is an error, not a silent skip.
enum PushProviderAssembly {
    /// Every provider `settings` configure, delivering through `httpClient`; the VAPID key is kept in
    /// `vapidKeyDirectory` (nil: a fresh key for this process).
    static func providers(
        settings: ServerSettings, vapidKeyDirectory: String?, httpClient: HTTPClient, pinnedClients: PinnedHTTPClients
    ) throws(ServerAssemblyError) -> [any PushProvider] {
        let credentials = settings.pushProviders
        var providers = [
            try webPushProvider(
                endpointPolicy: settings.webPushEndpointPolicy, keyDirectory: vapidKeyDirectory, httpClient: httpClient, pinnedClients: pinnedClients)
        ]
        let apnsParts = [credentials.apnsKeyID, credentials.apnsTeamID, credentials.apnsTopic]
        if let keyFile = credentials.apnsKeyFile {
            guard let keyID = credentials.apnsKeyID, let teamID = credentials.apnsTeamID, let topic = credentials.apnsTopic else {
                throw .invalidSetting("--apns-key needs --apns-key-id, --apns-team-id and --apns-topic")
            }
            do throws(PushConfigurationError) {
                let configuration = try APNsProviderConfiguration.load(
                    keyFile: keyFile, keyID: keyID, teamID: teamID, bundleID: topic, environment: credentials.apnsSandbox ? .sandbox : .production)
                providers.append(APNsProvider(configuration: configuration, httpClient: httpClient))
            } catch {
                throw .invalidSetting("APNs: \(error)")
            }
        } else if apnsParts.contains(where: { $0 != nil }) || credentials.apnsSandbox {
            throw .invalidSetting("the --apns-* options need --apns-key")
        }
        if let file = credentials.fcmServiceAccountFile {
            do throws(PushConfigurationError) {
                providers.append(FCMProvider(configuration: try FCMProviderConfiguration.load(serviceAccountFile: file), httpClient: httpClient))
            } catch {
                throw .invalidSetting("FCM: \(error)")
            }
        }
        return providers
    }

    /// The Web Push provider the gateway delivers knocks with (to its own push service or any other).
    ///
    /// The VAPID key is kept in `vapid-private.pem` in `keyDirectory` (made on first start, mode 0600), so
    /// restricted subscriptions keep working across restarts; without a directory (PostgreSQL) a fresh key is made
    /// per process. `endpointPolicy` is the SSRF guard (``ServerSettings/webPushEndpointPolicy``); `pinnedClients`
    /// make each delivery connect to the address the guard checked (DNS rebinding).
    static func webPushProvider(
        endpointPolicy: WebPushEndpointPolicy, keyDirectory: String?, httpClient: HTTPClient, pinnedClients: PinnedHTTPClients
    ) throws(ServerAssemblyError) -> any PushProvider {
        let key: P256.Signing.PrivateKey
        if let keyDirectory {
            let file = URL(fileURLWithPath: keyDirectory).appendingPathComponent("vapid-private.pem")
            if let data = FileManager.default.contents(atPath: file.path), data.count <= 4_096 {
                do throws(PushConfigurationError) {
                    key = try WebPushProviderConfiguration.vapidSigningKey(from: String(decoding: data, as: UTF8.self))
                } catch {
                    throw .invalidSetting("\(file.path): \(error)")
                }
            } else {
                key = P256.Signing.PrivateKey()
                guard FileManager.default.createFile(atPath: file.path, contents: Data(key.pemRepresentation.utf8), attributes: [.posixPermissions: 0o600]) else {
                    throw .fileSystem(path: file.path, reason: "cannot write the VAPID key")
                }
            }
        } else {
            key = P256.Signing.PrivateKey()
        }
        do throws(PushConfigurationError) {
            let configuration = try WebPushProviderConfiguration(signer: VAPIDSigner(signingKey: key), subject: nil, endpointPolicy: endpointPolicy)
            return WebPushProvider(configuration: configuration, httpClient: httpClient, pinnedClients: pinnedClients)
        } catch {
            throw .invalidSetting("web push provider: \(error)")
        }
    }
}
