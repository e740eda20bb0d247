import AsyncHTTPClient
import Crypto
import Foundation
import Kith
import KithPush
import KithPushDelivery

extension ServeCommand {
    /// The Web Push provider the gateway of `kith serve` delivers knocks with (to its own push service or any other).
    ///
    /// The VAPID key is kept in `vapid-private.pem` beside the SQLite database (made on first start, mode 0600), so
    /// restricted subscriptions keep working across restarts; with PostgreSQL a fresh key is made per process.
    /// `endpointPolicy` is the SSRF guard (``ServerSettings/webPushEndpointPolicy``): private and loopback endpoints
    /// only with `--allow-private-push-endpoints`, whatever the bind address.
    static func webPushProvider(endpointPolicy: WebPushEndpointPolicy, databasePath: String, httpClient: HTTPClient) throws -> any PushProvider {
        let key: P256.Signing.PrivateKey
        if databasePath.isEmpty {
            key = P256.Signing.PrivateKey()
        } else {
            let file = URL(fileURLWithPath: databasePath).deletingLastPathComponent().appendingPathComponent("vapid-private.pem")
            if let data = FileManager.default.contents(atPath: file.path), data.count <= 4_096 {
                do throws(PushConfigurationError) {
                    key = try WebPushProviderConfiguration.vapidSigningKey(from: String(decoding: data, as: UTF8.self))
                } catch {
                    throw KithError.input(.invalid("\(file.path): \(error)"))
                }
            } else {
                key = P256.Signing.PrivateKey()
                guard FileManager.default.createFile(atPath: file.path, contents: Data(key.pemRepresentation.utf8), attributes: [.posixPermissions: 0o600]) else {
                    throw KithError.fileSystem(path: file.path, reason: "cannot write the VAPID key")
                }
            }
        }
        do throws(PushConfigurationError) {
            let configuration = try WebPushProviderConfiguration(
                signer: VAPIDSigner(signingKey: key), subject: nil, endpointPolicy: endpointPolicy)
            return WebPushProvider(configuration: configuration, httpClient: httpClient)
        } catch {
            throw KithError.input(.invalid("web push provider: \(error)"))
        }
    }

    /// Every provider the options configure: Web Push always, APNs with `--apns-key` (and its ids and topic), FCM
    /// with `--fcm-service-account`. A half-configured provider is an error, not a silent skip.
    func providers(endpointPolicy: WebPushEndpointPolicy, databasePath: String, httpClient: HTTPClient) throws -> [any PushProvider] {
        var providers = [try Self.webPushProvider(endpointPolicy: endpointPolicy, databasePath: databasePath, httpClient: httpClient)]
        let apnsParts = [apnsKeyID, apnsTeamID, apnsTopic]
        if let keyFile = apnsKey {
            guard let keyID = apnsKeyID, let teamID = apnsTeamID, let topic = apnsTopic else {
                throw KithError.input(.invalid("--apns-key needs --apns-key-id, --apns-team-id and --apns-topic"))
            }
            do throws(PushConfigurationError) {
                let configuration = try APNsProviderConfiguration.load(
                    keyFile: keyFile, keyID: keyID, teamID: teamID, bundleID: topic, environment: apnsSandbox ? .sandbox : .production)
                providers.append(APNsProvider(configuration: configuration, httpClient: httpClient))
            } catch {
                throw KithError.input(.invalid("APNs: \(error)"))
            }
        } else if apnsParts.contains(where: { $0 != nil }) || apnsSandbox {
            throw KithError.input(.invalid("the --apns-* options need --apns-key"))
        }
        if let file = fcmServiceAccount {
            do throws(PushConfigurationError) {
                providers.append(FCMProvider(configuration: try FCMProviderConfiguration.load(serviceAccountFile: file), httpClient: httpClient))
            } catch {
                throw KithError.input(.invalid("FCM: \(error)"))
            }
        }
        return providers
    }
}
