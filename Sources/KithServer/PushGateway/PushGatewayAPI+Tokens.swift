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
    ///
    /// The device field names the device by its id (what ChatSecure-Push-Server's own API test sends) or by its
    /// registration id (what the ChatSecure-Push iOS SDK's `createToken` sends: the APNs token).
    func createTokens(_ request: Request, _ context: RendezvousRequestContext) async throws(GatewayRejection) -> Response {
        let (account, apiToken) = try await authenticatedCaller(request, context)
        let body = try await GatewayBody.object(request, limit: limits.maximumBodyBytes)
        let named = PushTargetKind.allCases.filter { body[Self.deviceField($0)] != nil && body[Self.deviceField($0)]?.isNull == false }
        guard named.count == 1, let kind = named.first else {
            throw .field("non_field_errors", named.isEmpty
                ? "Either an APNS, GCM or Web Push device must be specified"
                : "Only one APNS, GCM or Web Push device may be specified")
        }
        let field = Self.deviceField(kind)
        let deviceText = try GatewayBody.requiredString(body, field, maximumLength: max(36, Self.maximumRegistrationIDLength))
        let name = try GatewayBody.optionalString(body, "name", maximumLength: 100)
        var count: Int?
        if let value = body["count"], !value.isNull {
            guard let number = value.integerValue, (1...Int64(limits.maximumTokenBatch)).contains(number) else {
                throw .field("count", "Ensure this value is a whole number from 1 to \(limits.maximumTokenBatch).")
            }
            count = Int(number)
        }
        guard let device = try await ownDevice(account, kind: kind, named: deviceText) else {
            throw .field(field, "Invalid pk \"\(deviceText.prefix(64))\" - object does not exist.")
        }
        let now = clock.nowMilliseconds()
        let expiresAt = now + Int64(limits.tokenLifetimeSeconds) * 1_000
        let nonces = (0..<(count ?? 1)).map { _ in PushTokenDerivation.nonce() }
        let tokens = nonces.map { PushTokenDerivation.token(apiToken: apiToken, nonce: $0) }
        let records = zip(tokens, nonces).map { token, nonce in
            PushTokenRecord(
                digest: token.storageDigest, owner: account.id, deviceID: device.id, deviceKind: kind, name: name, createdAt: now, expiresAt: expiresAt,
                derivationNonce: nonce)
        }
        let maximum = limits.tokensPerAccount
        guard try await stored({ () async throws(PushStoreError) in try await store.addTokens(records, maximumPerAccount: maximum) }) else {
            throw .field("non_field_errors", "An account holds at most \(maximum) tokens; revoke unused ones first.")
        }
        let objects = zip(tokens, records).map { Self.tokenJSON($1, token: $0) }
        if count == nil { return RESTResponse.json(.created, objects[0]) }
        return RESTResponse.json(.created, ["results": .array(objects.map { .object($0) })])
    }

    /// The caller's device of `kind` named by its id (a UUID) or, failing that, by its registration id.
    private func ownDevice(_ account: PushAccount, kind: PushTargetKind, named text: String) async throws(GatewayRejection) -> PushDevice? {
        if text.utf8.count == 36, let uuid = UUID(uuidString: text),
           let device = try await stored({ () async throws(PushStoreError) in
               try await store.device(owner: account.id, kind: kind, id: uuid.uuidString.lowercased())
           }) {
            return device
        }
        var registration = text
        if kind == .apns { registration.removeAll { $0 == " " } }  // stored without spaces (registerDevice)
        let devices = try await stored { () async throws(PushStoreError) in try await store.devices(owner: account.id, kind: kind) }
        return devices.first { $0.registrationID == registration }
    }

    /// `GET tokens/` → the caller's tokens, each with `token` derived again from the caller's API token
    /// (``PushTokenDerivation``; tokens are stored as digests only).
    ///
    /// `results` holds the APNs and GCM tokens in the shape the ChatSecure-Push SDK parses (it rejects the whole
    /// list when one entry lacks `token` or a device field it knows). Web Push tokens are under `webpush_results`;
    /// tokens that cannot be derived any more (created before the caller's latest login) are under
    /// `earlier_results`, named by `token_digest` (SHA-256, hex). Both extra keys are ignored by the SDK.
    func listTokens(_ request: Request, _ context: RendezvousRequestContext) async throws(GatewayRejection) -> Response {
        let (account, apiToken) = try await authenticatedCaller(request, context)
        let records = try await stored { () async throws(PushStoreError) in try await store.tokens(owner: account.id) }
        var results: [JSONValue] = []
        var webPush: [JSONValue] = []
        var earlier: [JSONValue] = []
        for record in records {
            guard let token = PushTokenDerivation.token(of: record, apiToken: apiToken) else {
                earlier.append(.object(Self.tokenJSON(record, token: nil)))
                continue
            }
            let object = JSONValue.object(Self.tokenJSON(record, token: token))
            if record.deviceKind == .webPush { webPush.append(object) } else { results.append(object) }
        }
        return RESTResponse.json(.ok, ["results": .array(results), "webpush_results": .array(webPush), "earlier_results": .array(earlier)])
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
