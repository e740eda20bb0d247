import Crypto
import Foundation
import KithCanonical

/// TURN credentials in coturn's shared-secret REST scheme (`use-auth-secret` / `static-auth-secret`): the username is
/// `expiry:id`, the password `base64(HMAC-SHA1(secret, username))`, so a TURN server that shares the secret accepts
/// them until `expiry` without any per-user state.
public struct TURNConfiguration: Sendable {
    /// The secret shared with the TURN server (at least 16 bytes).
    let secret: [UInt8]
    /// STUN/TURN URLs handed to clients (`stun:`, `turn:`, `turns:`).
    public var uris: [String]
    /// How long credentials stay valid, in seconds (1 ... 86,400; default 1 hour).
    public var ttlSeconds: Int

    /// Why a configuration was refused.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// The shared secret is shorter than 16 bytes.
        case secretTooShort
        /// A URL does not start with `stun:`, `turn:` or `turns:`, or there is none.
        case invalidURI(String)
        /// The lifetime is outside 1 ... 86,400 seconds.
        case invalidTTL(Int)

        public var description: String {
            switch self {
            case .secretTooShort: "the TURN shared secret must be at least 16 bytes"
            case .invalidURI(let uri): "'\(uri.prefix(80))' is not a stun:, turn: or turns: URL"
            case .invalidTTL(let ttl): "a TURN credential lifetime of \(ttl) s is outside 1...86400"
            }
        }
    }

    /// A configuration; throws ``Problem`` for a short secret, a bad URL or lifetime.
    public init(secret: [UInt8], uris: [String], ttlSeconds: Int = 3_600) throws(Problem) {
        guard secret.count >= 16 else { throw .secretTooShort }
        guard !uris.isEmpty else { throw .invalidURI("") }
        for uri in uris where !(uri.hasPrefix("stun:") || uri.hasPrefix("turn:") || uri.hasPrefix("turns:")) || uri.utf8.count > 256 {
            throw .invalidURI(uri)
        }
        guard (1...86_400).contains(ttlSeconds) else { throw .invalidTTL(ttlSeconds) }
        self.secret = secret
        self.uris = uris
        self.ttlSeconds = ttlSeconds
    }

    /// Credentials for one member of one room, valid until `now + ttl` (seconds since the epoch), whose username
    /// grants nothing: `expiry:` followed by ``opaqueID(room:device:)``, never the room id (a bearer secret) nor the
    /// device id, so a TURN server or its logs learn neither.
    public func credentials(room: String, device: String, nowSeconds: Int64) -> TURNCredentials {
        credentials(for: opaqueID(room: room, device: device), nowSeconds: nowSeconds)
    }

    /// The username's id for a member of a room: base64url (no padding) of the first 16 bytes of
    /// `HMAC-SHA256(secret, "Kith_TURN_username_v1" ‖ 0x00 ‖ room ‖ 0x00 ‖ device)`: stable for one member, distinct
    /// between members and rooms, and nothing can be learned from it without the secret.
    public func opaqueID(room: String, device: String) -> String {
        let message = Array("Kith_TURN_username_v1".utf8) + [0] + Array(room.utf8) + [0] + Array(device.utf8)
        let mac = HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: secret))
        return Base64URL.encode(Array(Data(mac).prefix(16)))
    }

    /// Credentials for `id` valid until `now + ttl` (seconds since the epoch).
    public func credentials(for id: String, nowSeconds: Int64) -> TURNCredentials {
        let username = "\(nowSeconds + Int64(ttlSeconds)):\(id)"
        let mac = HMAC<Insecure.SHA1>.authenticationCode(for: Array(username.utf8), using: SymmetricKey(data: secret))
        return TURNCredentials(username: username, password: Data(mac).base64EncodedString(), ttlSeconds: ttlSeconds, uris: uris)
    }
}

/// One set of TURN credentials, as `GET /api/turn-credentials` returns them.
public struct TURNCredentials: Sendable, Equatable {
    /// `expiry:id` (for a room member, the id is ``TURNConfiguration/opaqueID(room:device:)``).
    public let username: String
    /// `base64(HMAC-SHA1(secret, username))` (standard base64, as coturn expects).
    public let password: String
    /// Seconds the credentials stay valid.
    public let ttlSeconds: Int
    /// STUN/TURN URLs.
    public let uris: [String]

    /// The JSON body: `{"password","ttl","uris","username"}`.
    var json: JSONObject {
        var object = JSONObject()
        object["username"] = .string(username)
        object["password"] = .string(password)
        object["ttl"] = .integer(Int64(ttlSeconds))
        object["uris"] = .array(uris.map { .string($0) })
        return object
    }
}
