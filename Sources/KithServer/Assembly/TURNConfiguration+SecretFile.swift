import Foundation

extension TURNConfiguration {
    /// TURN settings from ``ServerSettings/turnSecretFile``, ``ServerSettings/turnURIs`` and
    /// ``ServerSettings/turnTTLSeconds`` (the secret from a file, never from the command line, which other users
    /// see); nil without a secret file.
    static func load(settings: ServerSettings) throws(ServerAssemblyError) -> TURNConfiguration? {
        guard let path = settings.turnSecretFile, !path.isEmpty else {
            guard settings.turnURIs.isEmpty else { throw .invalidSetting("--turn-uri needs --turn-secret-file") }
            return nil
        }
        guard let data = FileManager.default.contents(atPath: path), data.count <= 4096 else {
            throw .invalidSetting("cannot read the TURN secret file \(path) (at most 4 KiB)")
        }
        let secret = Array(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).utf8)
        do throws(TURNConfiguration.Problem) {
            return try TURNConfiguration(secret: secret, uris: settings.turnURIs, ttlSeconds: settings.turnTTLSeconds)
        } catch {
            throw .invalidSetting(error.description)
        }
    }
}
