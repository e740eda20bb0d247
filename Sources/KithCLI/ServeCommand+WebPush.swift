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
    /// restricted subscriptions keep working across restarts; with PostgreSQL a fresh key is made per process. Private
    /// and loopback endpoints are allowed only when the server itself listens on loopback (its own push service is
    /// then on loopback too); otherwise the provider's SSRF guard refuses them.
    static func webPushProvider(host: String, databasePath: String) throws -> any PushProvider {
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
        let loopback = ["127.0.0.1", "localhost", "::1"].contains(host)
        do throws(PushConfigurationError) {
            let configuration = try WebPushProviderConfiguration(
                signer: VAPIDSigner(signingKey: key), subject: nil, endpointPolicy: WebPushEndpointPolicy(allowPrivateAddresses: loopback))
            return WebPushProvider(configuration: configuration, httpClient: .shared)
        } catch {
            throw KithError.input(.invalid("web push provider: \(error)"))
        }
    }
}
