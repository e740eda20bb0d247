import Crypto
import Foundation
import Hummingbird
import KithCanonical
import KithPush
import KithPushDelivery

extension PushGatewayAPI {
    /// The JSON field naming a token's device.
    static func deviceField(_ kind: PushTargetKind) -> String {
        switch kind {
        case .apns: "apns_device"
        case .fcm: "gcm_device"
        case .webPush: "webpush_device"
        }
    }

    /// `POST tokens/` `{<device field>, name?, count?}` → 201 one token, or `{"results":[…]}` with `count` | 400 | 401.
    func createTokens(_ request: Request, _ context: RendezvousRequestContext) async throws(GatewayRejection) -> Response {
        let account = try await authenticate(request, context)
        let body = try await GatewayBody.object(request, limit: limits.maximumBodyBytes)
        let named = PushTargetKind.allCases.filter { body[Self.deviceField($0)] != nil && body[Self.deviceField($0)]?.isNull == false }
        guard named.count == 1, let kind = named.first else {
            throw .field("non_field_errors", named.isEmpty
                ? "Either an APNS, GCM or Web Push device must be specified"
                : "Only one APNS, GCM or Web Push device may be specified")
        }
        let field = Self.deviceField(kind)
        let deviceText = try GatewayBody.requiredString(body, field, maximumLength: 64)
        let name = try GatewayBody.optionalString(body, "name", maximumLength: 100)
        var count: Int?
        if let value = body["count"], !value.isNull {
            guard let number = value.integerValue, (1...Int64(limits.maximumTokenBatch)).contains(number) else {
                throw .field("count", "Ensure this value is a whole number from 1 to \(limits.maximumTokenBatch).")
            }
            count = Int(number)
        }
        guard deviceText.utf8.count == 36, let uuid = UUID(uuidString: deviceText),
              let device = try await stored({ () async throws(PushStoreError) in
                  try await store.device(owner: account.id, kind: kind, id: uuid.uuidString.lowercased())
              }) else {
            throw .field(field, "Invalid pk \"\(deviceText.prefix(64))\" - object does not exist.")
        }
        let now = clock.nowMilliseconds()
        let expiresAt = now + Int64(limits.tokenLifetimeSeconds) * 1_000
        let tokens = (0..<(count ?? 1)).map { _ in WhitelistToken.generate() }
        let records = tokens.map {
            PushTokenRecord(digest: $0.storageDigest, owner: account.id, deviceID: device.id, deviceKind: kind, name: name, createdAt: now, expiresAt: expiresAt)
        }
        let maximum = limits.tokensPerAccount
        guard try await stored({ () async throws(PushStoreError) in try await store.addTokens(records, maximumPerAccount: maximum) }) else {
            throw .field("non_field_errors", "An account holds at most \(maximum) tokens; revoke unused ones first.")
        }
        let objects = zip(tokens, records).map { Self.tokenJSON($1, token: $0) }
        if count == nil { return RESTResponse.json(.created, objects[0]) }
        return RESTResponse.json(.created, ["results": .array(objects.map { .object($0) })])
    }

    /// `GET tokens/` → `{"results":[…]}`: the caller's tokens. Tokens are stored as digests, so a
    /// listed token carries `token_digest` (SHA-256, hex) instead of the token.
    func listTokens(_ request: Request, _ context: RendezvousRequestContext) async throws(GatewayRejection) -> Response {
        let account = try await authenticate(request, context)
        let records = try await stored { () async throws(PushStoreError) in try await store.tokens(owner: account.id) }
        return RESTResponse.json(.ok, ["results": .array(records.map { .object(Self.tokenJSON($0, token: nil)) })])
    }

    /// `GET tokens/<token>/` → 200 | 404.
    func getToken(_ request: Request, _ context: RendezvousRequestContext) async throws(GatewayRejection) -> Response {
        let account = try await authenticate(request, context)
        let token = try Self.pathToken(context)
        guard let record = try await stored({ () async throws(PushStoreError) in try await store.token(owner: account.id, digest: token.storageDigest) }) else {
            throw .notFound
        }
        return RESTResponse.json(.ok, Self.tokenJSON(record, token: token))
    }

    /// `DELETE tokens/<token>/` → 204 (revoked: its knocks answer 404 from now on) | 404.
    func deleteToken(_ request: Request, _ context: RendezvousRequestContext) async throws(GatewayRejection) -> Response {
        let account = try await authenticate(request, context)
        let token = try Self.pathToken(context)
        guard try await stored({ () async throws(PushStoreError) in try await store.deleteToken(owner: account.id, digest: token.storageDigest) }) else {
            throw .notFound
        }
        return Response(status: .noContent)
    }

    static func pathToken(_ context: RendezvousRequestContext) throws(GatewayRejection) -> WhitelistToken {
        guard let text = context.parameters.get("token"), let token = try? WhitelistToken(hex: text) else { throw .notFound }
        return token
    }

    /// A token object; null fields are left out (ChatSecure's `NonNullSerializer`).
    static func tokenJSON(_ record: PushTokenRecord, token: WhitelistToken?) -> JSONObject {
        var object: JSONObject = [
            deviceField(record.deviceKind): .string(record.deviceID),
            "date_expires": .string(GatewayTime.text(milliseconds: record.expiresAt)),
        ]
        if let name = record.name { object["name"] = .string(name) }
        if let token { object["token"] = .string(token.hex) } else { object["token_digest"] = .string(Hex.encode(record.digest)) }
        return object
    }
}
