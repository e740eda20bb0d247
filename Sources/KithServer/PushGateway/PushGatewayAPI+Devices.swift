import Foundation
import Hummingbird
import KithCanonical
import KithPush
import KithPushDelivery

extension PushGatewayAPI {
    /// Longest APNs/FCM registration id accepted.
    static let maximumRegistrationIDLength = 512
    /// Longest Web Push endpoint accepted (UnifiedPush's bound).
    static let maximumEndpointBytes = 1_000

    /// `POST device/<kind>/` → 201 new | 200 the owner's device with that registration id (reactivated) | 400 | 401.
    func registerDevice(_ request: Request, _ context: RendezvousRequestContext, kind: PushTargetKind) async throws(GatewayRejection) -> Response {
        let account = try await authenticate(request, context)
        let body = try await GatewayBody.object(request, limit: limits.maximumBodyBytes)
        let fields = try deviceFields(body, kind: kind, partial: false)
        let device = PushDevice(
            id: UUID().uuidString.lowercased(), owner: account.id, kind: kind, name: fields.name, active: fields.active ?? true,
            registrationID: fields.registrationID ?? "", deviceID: fields.deviceID, p256dh: fields.p256dh, auth: fields.auth,
            createdAt: clock.nowMilliseconds())
        let outcome = try await stored { () async throws(PushStoreError) in
            try await store.registerDevice(device, maximumPerAccount: limits.devicesPerAccount)
        }
        switch outcome {
        case .created(let created): return RESTResponse.json(.created, Self.deviceJSON(created))
        case .existing(let existing): return RESTResponse.json(.ok, Self.deviceJSON(existing))
        case .limitReached:
            throw .field("non_field_errors", "An account holds at most \(limits.devicesPerAccount) devices; delete one first.")
        }
    }

    /// `GET device/<kind>/` → the caller's devices of that kind (a JSON array, as ChatSecure).
    func listDevices(_ request: Request, _ context: RendezvousRequestContext, kind: PushTargetKind) async throws(GatewayRejection) -> Response {
        let account = try await authenticate(request, context)
        let devices = try await stored { () async throws(PushStoreError) in try await store.devices(owner: account.id, kind: kind) }
        return RESTResponse.json(.ok, value: .array(devices.map { .object(Self.deviceJSON($0)) }))
    }

    /// `GET device/<kind>/<id>/` → 200 | 404 (also for another owner's device).
    func getDevice(_ request: Request, _ context: RendezvousRequestContext, kind: PushTargetKind) async throws(GatewayRejection) -> Response {
        let account = try await authenticate(request, context)
        return RESTResponse.json(.ok, Self.deviceJSON(try await ownDevice(account, context, kind: kind)))
    }

    /// `PUT` (every field) or `PATCH` (some) `device/<kind>/<id>/` → 200 | 400 | 404.
    func updateDevice(_ request: Request, _ context: RendezvousRequestContext, kind: PushTargetKind, partial: Bool) async throws(GatewayRejection) -> Response {
        let account = try await authenticate(request, context)
        var device = try await ownDevice(account, context, kind: kind)
        let body = try await GatewayBody.object(request, limit: limits.maximumBodyBytes)
        let fields = try deviceFields(body, kind: kind, partial: partial)
        if let registrationID = fields.registrationID, registrationID != device.registrationID {
            let others = try await stored { () async throws(PushStoreError) in try await store.devices(owner: account.id, kind: kind) }
            if others.contains(where: { $0.registrationID == registrationID }) {
                throw .field(kind == .webPush ? "endpoint" : "registration_id", "Another device of this account already uses this value.")
            }
            device.registrationID = registrationID
        }
        if partial {
            if body["name"] != nil { device.name = fields.name }
            if body["device_id"] != nil { device.deviceID = fields.deviceID }
        } else {
            device.name = fields.name
            device.deviceID = fields.deviceID
        }
        if let active = fields.active { device.active = active }
        if let p256dh = fields.p256dh, let auth = fields.auth {
            device.p256dh = p256dh
            device.auth = auth
        }
        let updated = device
        guard try await stored({ () async throws(PushStoreError) in try await store.updateDevice(updated) }) else { throw .notFound }
        return RESTResponse.json(.ok, Self.deviceJSON(updated))
    }

    /// `DELETE device/<kind>/<id>/` → 204 (its tokens go with it) | 404.
    func deleteDevice(_ request: Request, _ context: RendezvousRequestContext, kind: PushTargetKind) async throws(GatewayRejection) -> Response {
        let account = try await authenticate(request, context)
        let id = try Self.deviceID(context)
        guard try await stored({ () async throws(PushStoreError) in try await store.deleteDevice(owner: account.id, kind: kind, id: id) }) else {
            throw .notFound
        }
        return Response(status: .noContent)
    }

    private func ownDevice(_ account: PushAccount, _ context: RendezvousRequestContext, kind: PushTargetKind) async throws(GatewayRejection) -> PushDevice {
        let id = try Self.deviceID(context)
        guard let device = try await stored({ () async throws(PushStoreError) in try await store.device(owner: account.id, kind: kind, id: id) }) else {
            throw .notFound
        }
        return device
    }

    /// The `:id` path parameter as a lowercase UUID; 404 for anything else.
    static func deviceID(_ context: RendezvousRequestContext) throws(GatewayRejection) -> String {
        guard let text = context.parameters.get("id"), text.utf8.count == 36, let uuid = UUID(uuidString: text) else { throw .notFound }
        return uuid.uuidString.lowercased()
    }

    /// The fields of a device body, validated.
    struct DeviceFields {
        var registrationID: String?
        var name: String?
        var deviceID: String?
        var active: Bool?
        var p256dh: String?
        var auth: String?
    }

    func deviceFields(_ body: JSONObject, kind: PushTargetKind, partial: Bool) throws(GatewayRejection) -> DeviceFields {
        var fields = DeviceFields()
        fields.name = try GatewayBody.optionalString(body, "name", maximumLength: 255)
        fields.active = try GatewayBody.optionalBool(body, "active")
        switch kind {
        case .apns, .fcm:
            fields.deviceID = try GatewayBody.optionalString(body, "device_id", maximumLength: 255)
            if !partial || body["registration_id"] != nil {
                var registration = try GatewayBody.requiredString(body, "registration_id", maximumLength: Self.maximumRegistrationIDLength)
                // ChatSecure strips spaces from APNs tokens (`<abcd 1234 …>` as printed by iOS).
                if kind == .apns { registration.removeAll { $0 == " " } }
                guard !registration.isEmpty, registration.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
                    throw .field("registration_id", "Enter a valid registration id (printable ASCII).")
                }
                fields.registrationID = registration
            }
        case .webPush:
            if !partial || body["endpoint"] != nil {
                let endpoint = try GatewayBody.requiredString(body, "endpoint", maximumLength: Self.maximumEndpointBytes)
                guard endpoint.utf8.count <= Self.maximumEndpointBytes, let url = URLComponents(string: endpoint),
                      url.scheme == "https" || url.scheme == "http", url.host?.isEmpty == false, url.user == nil, url.password == nil else {
                    throw .field("endpoint", "Enter a valid http(s) URL.")
                }
                if let endpointPolicy {
                    do throws(WebPushEndpointError) { _ = try endpointPolicy.check(endpoint) } catch {
                        throw .field("endpoint", Self.refusedEndpointMessage(error))
                    }
                }
                fields.registrationID = endpoint
            }
            if !partial || body["keys"] != nil {
                guard let keys = body["keys"]?.objectValue else { throw .field("keys", "This field is required (an object with p256dh and auth).") }
                let p256dh = try GatewayBody.requiredString(keys, "p256dh", maximumLength: 100)
                let auth = try GatewayBody.requiredString(keys, "auth", maximumLength: 100)
                do throws(WebPushError) {
                    let parsed = try WebPushSubscriberKeys(p256dh: p256dh, auth: auth)
                    fields.p256dh = parsed.p256dhBase64URL
                    fields.auth = parsed.authBase64URL
                } catch {
                    throw .field("keys", "Invalid Web Push keys: \(error)")
                }
            }
        }
        return fields
    }

    /// The 400 message for an endpoint the SSRF policy refuses: the reason code and what is allowed, never
    /// whether or how the address would answer.
    static func refusedEndpointMessage(_ error: WebPushEndpointError) -> String {
        guard case .privateAddress = error else { return "This push service address is not allowed here (\(error.code))." }
        return "This push service address is not allowed here (private_address): push services must be on public hosts "
            + "unless the server's operator runs it with --allow-private-push-endpoints."
    }

        static func deviceJSON(_ device: PushDevice) -> JSONObject {
        var object: JSONObject = [
            "id": .string(device.id), "name": device.name.map(JSONValue.string) ?? .null, "active": .bool(device.active),
            "date_created": .string(GatewayTime.text(milliseconds: device.createdAt)),
        ]
        switch device.kind {
        case .apns, .fcm:
            object["registration_id"] = .string(device.registrationID)
            object["device_id"] = device.deviceID.map(JSONValue.string) ?? .null
        case .webPush:
            object["endpoint"] = .string(device.registrationID)
            object["keys"] = .object(["p256dh": .string(device.p256dh ?? ""), "auth": .string(device.auth ?? "")])
        }
        return object
    }
}
