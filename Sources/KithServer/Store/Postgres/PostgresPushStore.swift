import Foundation
import KithPushDelivery
import Logging
import PostgresNIO

/// The ``PushStore`` shared by several nodes: the PostgreSQL database of a
/// ``PostgresRendezvousStore`` (same client). Bounds per account and per subscription hold across
/// nodes: each such transaction locks the owner's (or the subscription's) row first.
public final class PostgresPushStore: PushStore {
    let client: PostgresClient
    let logger: Logger
    /// Keeps the rendezvous store (and its client's run task) alive.
    private let rendezvous: PostgresRendezvousStore

    private init(rendezvous: PostgresRendezvousStore) {
        self.rendezvous = rendezvous
        client = rendezvous.client
        logger = rendezvous.logger
    }

    /// Creates the push tables if absent, on the database of `store`.
    public static func open(store: PostgresRendezvousStore) async throws(PushStoreError) -> PostgresPushStore {
        let push = PostgresPushStore(rendezvous: store)
        do {
            try await push.client.withTransaction(logger: push.logger) { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(7462)", logger: push.logger)
                var present = false
                for try await exists in try await connection.query("SELECT to_regclass('kith_push_messages') IS NOT NULL", logger: push.logger).decode(Bool.self) {
                    present = exists
                }
                if !present {
                    for statement in PostgresPushSchema.statements {
                        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: push.logger)
                    }
                }
            }
        } catch {
            throw .openFailed(path: "postgres", reason: String(reflecting: error))
        }
        return push
    }

    @discardableResult
    func transaction<Value: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> Value) async throws(PushStoreError) -> Value {
        do {
            return try await rendezvous.callDeadline.transaction(client, logger: logger, body)
        } catch let timeout as PostgresCallDeadline.Exceeded {
            throw .queryFailed(timeout.description)
        } catch {
            throw .queryFailed(String(reflecting: error))
        }
    }

    static func count(_ rows: PostgresRowSequence) async throws -> Int {
        var count = 0
        for try await _ in rows { count += 1 }
        return count
    }

    // MARK: Accounts

    static let accountColumns = "id, username, email, password_record, auth_digest, created_at"

    static func accounts(_ rows: PostgresRowSequence) async throws -> [PushAccount] {
        var accounts: [PushAccount] = []
        for try await (id, username, email, record, digest, created) in rows.decode((String, String, String?, String, Data, Int64).self) {
            accounts.append(PushAccount(id: id, username: username, email: email, passwordRecord: record, authDigest: Array(digest), createdAt: created))
        }
        return accounts
    }

    public func createAccount(_ account: PushAccount) async throws(PushStoreError) -> Bool {
        try await transaction { [logger] connection in
            try await Self.count(connection.query(
                """
                INSERT INTO kith_push_accounts (id, username, email, password_record, auth_digest, created_at)
                VALUES (\(account.id), \(account.username), \(account.email), \(account.passwordRecord), \(Data(account.authDigest)), \(account.createdAt))
                ON CONFLICT (username) DO NOTHING RETURNING 1
                """, logger: logger)) == 1
        }
    }

    public func account(username: String) async throws(PushStoreError) -> PushAccount? {
        try await transaction { [logger] connection in
            try await Self.accounts(connection.query(
                "SELECT \(unescaped: Self.accountColumns) FROM kith_push_accounts WHERE username = \(username)", logger: logger)).first
        }
    }

    public func account(authDigest: [UInt8]) async throws(PushStoreError) -> PushAccount? {
        try await transaction { [logger] connection in
            try await Self.accounts(connection.query(
                "SELECT \(unescaped: Self.accountColumns) FROM kith_push_accounts WHERE auth_digest = \(Data(authDigest))", logger: logger)).first
        }
    }

    public func replaceAuthDigest(accountID: String, digest: [UInt8]) async throws(PushStoreError) {
        try await transaction { [logger] connection in
            try await connection.query("UPDATE kith_push_accounts SET auth_digest = \(Data(digest)) WHERE id = \(accountID)", logger: logger)
        }
    }

    public func deleteAccount(id: String) async throws(PushStoreError) -> Bool {
        try await transaction { [logger] connection in
            try await Self.count(connection.query("DELETE FROM kith_push_accounts WHERE id = \(id) RETURNING 1", logger: logger)) > 0
        }
    }

    // MARK: Devices

    static let deviceColumns = "id, owner, kind, name, active, registration_id, device_id, p256dh, auth, created_at"

    static func devices(_ rows: PostgresRowSequence) async throws -> [PushDevice] {
        var devices: [PushDevice] = []
        for try await (id, owner, kind, name, active, registration, deviceID, p256dh, auth, created) in rows.decode(
            (String, String, String, String?, Bool, String, String?, String?, String?, Int64).self) {
            devices.append(PushDevice(
                id: id, owner: owner, kind: PushTargetKind(rawValue: kind) ?? .apns, name: name, active: active, registrationID: registration,
                deviceID: deviceID, p256dh: p256dh, auth: auth, createdAt: created))
        }
        return devices
    }

    static func update(_ connection: PostgresConnection, _ device: PushDevice, logger: Logger) async throws -> Int {
        try await count(connection.query(
            """
            UPDATE kith_push_devices SET name = \(device.name), active = \(device.active), registration_id = \(device.registrationID),
            device_id = \(device.deviceID), p256dh = \(device.p256dh), auth = \(device.auth)
            WHERE id = \(device.id) AND owner = \(device.owner) RETURNING 1
            """, logger: logger))
    }

    public func registerDevice(_ device: PushDevice, maximumPerAccount: Int) async throws(PushStoreError) -> DeviceRegistration {
        try await transaction { [logger] connection in
            try await connection.query("SELECT 1 FROM kith_push_accounts WHERE id = \(device.owner) FOR UPDATE", logger: logger)
            if var existing = try await Self.devices(connection.query(
                """
                SELECT \(unescaped: Self.deviceColumns) FROM kith_push_devices
                WHERE owner = \(device.owner) AND kind = \(device.kind.rawValue) AND registration_id = \(device.registrationID)
                """, logger: logger)).first {
                existing.name = device.name ?? existing.name
                existing.deviceID = device.deviceID ?? existing.deviceID
                existing.p256dh = device.p256dh ?? existing.p256dh
                existing.auth = device.auth ?? existing.auth
                existing.active = true
                _ = try await Self.update(connection, existing, logger: logger)
                return .existing(existing)
            }
            var count = 0
            for try await value in try await connection.query("SELECT COUNT(*) FROM kith_push_devices WHERE owner = \(device.owner)", logger: logger).decode(Int64.self) {
                count = Int(value)
            }
            guard count < maximumPerAccount else { return .limitReached }
            try await connection.query(
                """
                INSERT INTO kith_push_devices (id, owner, kind, name, active, registration_id, device_id, p256dh, auth, created_at)
                VALUES (\(device.id), \(device.owner), \(device.kind.rawValue), \(device.name), \(device.active), \(device.registrationID),
                \(device.deviceID), \(device.p256dh), \(device.auth), \(device.createdAt))
                """, logger: logger)
            return .created(device)
        }
    }

    public func devices(owner: String, kind: PushTargetKind) async throws(PushStoreError) -> [PushDevice] {
        try await transaction { [logger] connection in
            try await Self.devices(connection.query(
                "SELECT \(unescaped: Self.deviceColumns) FROM kith_push_devices WHERE owner = \(owner) AND kind = \(kind.rawValue) ORDER BY created_at, seq",
                logger: logger))
        }
    }

    public func device(owner: String, kind: PushTargetKind, id: String) async throws(PushStoreError) -> PushDevice? {
        try await transaction { [logger] connection in
            try await Self.devices(connection.query(
                "SELECT \(unescaped: Self.deviceColumns) FROM kith_push_devices WHERE owner = \(owner) AND kind = \(kind.rawValue) AND id = \(id)",
                logger: logger)).first
        }
    }

    public func updateDevice(_ device: PushDevice) async throws(PushStoreError) -> Bool {
        try await transaction { [logger] connection in try await Self.update(connection, device, logger: logger) > 0 }
    }

    public func deleteDevice(owner: String, kind: PushTargetKind, id: String) async throws(PushStoreError) -> Bool {
        try await transaction { [logger] connection in
            try await Self.count(connection.query(
                "DELETE FROM kith_push_devices WHERE owner = \(owner) AND kind = \(kind.rawValue) AND id = \(id) RETURNING 1", logger: logger)) > 0
        }
    }

    public func deactivateDevice(id: String) async throws(PushStoreError) {
        try await transaction { [logger] connection in
            try await connection.query("UPDATE kith_push_devices SET active = FALSE WHERE id = \(id)", logger: logger)
        }
    }

    // MARK: Tokens

    static let tokenColumns = "digest, owner, device_id, device_kind, name, created_at, expires_at, derivation_nonce"

    static func tokens(_ rows: PostgresRowSequence) async throws -> [PushTokenRecord] {
        var tokens: [PushTokenRecord] = []
        let columns = (Data, String, String, String, String?, Int64, Int64, Data?).self
        for try await (digest, owner, device, kind, name, created, expires, nonce) in rows.decode(columns) {
            tokens.append(PushTokenRecord(
                digest: Array(digest), owner: owner, deviceID: device, deviceKind: PushTargetKind(rawValue: kind) ?? .apns, name: name,
                createdAt: created, expiresAt: expires, derivationNonce: nonce.map { Array($0) }))
        }
        return tokens
    }

    public func addTokens(_ tokens: [PushTokenRecord], maximumPerAccount: Int) async throws(PushStoreError) -> Bool {
        guard let owner = tokens.first?.owner else { return true }
        return try await transaction { [logger] connection in
            try await connection.query("SELECT 1 FROM kith_push_accounts WHERE id = \(owner) FOR UPDATE", logger: logger)
            var count = 0
            for try await value in try await connection.query("SELECT COUNT(*) FROM kith_push_tokens WHERE owner = \(owner)", logger: logger).decode(Int64.self) {
                count = Int(value)
            }
            guard count + tokens.count <= maximumPerAccount else { return false }
            for token in tokens {
                try await connection.query(
                    """
                    INSERT INTO kith_push_tokens (digest, owner, device_id, device_kind, name, created_at, expires_at, derivation_nonce)
                    VALUES (\(Data(token.digest)), \(token.owner), \(token.deviceID), \(token.deviceKind.rawValue), \(token.name), \(token.createdAt),
                            \(token.expiresAt), \(token.derivationNonce.map { Data($0) }))
                    """, logger: logger)
            }
            return true
        }
    }

    public func tokens(owner: String) async throws(PushStoreError) -> [PushTokenRecord] {
        try await transaction { [logger] connection in
            try await Self.tokens(connection.query(
                "SELECT \(unescaped: Self.tokenColumns) FROM kith_push_tokens WHERE owner = \(owner) ORDER BY created_at, seq", logger: logger))
        }
    }

    public func token(owner: String, digest: [UInt8]) async throws(PushStoreError) -> PushTokenRecord? {
        try await transaction { [logger] connection in
            try await Self.tokens(connection.query(
                "SELECT \(unescaped: Self.tokenColumns) FROM kith_push_tokens WHERE owner = \(owner) AND digest = \(Data(digest))", logger: logger)).first
        }
    }

    public func deleteToken(owner: String, digest: [UInt8]) async throws(PushStoreError) -> Bool {
        try await transaction { [logger] connection in
            try await Self.count(connection.query(
                "DELETE FROM kith_push_tokens WHERE owner = \(owner) AND digest = \(Data(digest)) RETURNING 1", logger: logger)) > 0
        }
    }

    public func knockTargets(tokenDigest: [UInt8], now: Int64) async throws(PushStoreError) -> [PushDevice]? {
        try await transaction { [logger] connection in
            var owner: String?
            for try await value in try await connection.query(
                "SELECT owner FROM kith_push_tokens WHERE digest = \(Data(tokenDigest)) AND expires_at > \(now)", logger: logger).decode(String.self) {
                owner = value
            }
            guard let owner else { return nil }
            return try await Self.devices(connection.query(
                "SELECT \(unescaped: Self.deviceColumns) FROM kith_push_devices WHERE owner = \(owner) AND active ORDER BY created_at, seq", logger: logger))
        }
    }

    // MARK: Push service

    static let subscriptionColumns = "id, secret_digest, capability_digest, vapid_key, created_at, deleted_at"

    static func subscriptions(_ rows: PostgresRowSequence) async throws -> [(PushSubscriptionRecord, deleted: Bool)] {
        var subscriptions: [(PushSubscriptionRecord, deleted: Bool)] = []
        for try await (id, secret, capability, key, created, deleted) in rows.decode((String, Data, Data, Data?, Int64, Int64?).self) {
            subscriptions.append((
                PushSubscriptionRecord(id: id, secretDigest: Array(secret), capabilityDigest: Array(capability), vapidKey: key.map { Array($0) }, createdAt: created),
                deleted != nil))
        }
        return subscriptions
    }

    public func accountCount() async throws(PushStoreError) -> Int {
        try await transaction { [logger] connection in
            try await Self.integer(connection.query("SELECT count(*) FROM kith_push_accounts", logger: logger))
        }
    }

    public func subscriptionCount() async throws(PushStoreError) -> Int {
        try await transaction { [logger] connection in
            try await Self.integer(connection.query("SELECT count(*) FROM kith_push_subscriptions WHERE deleted_at IS NULL", logger: logger))
        }
    }

    /// The first column of the first row, as an integer (a `count(*)`).
    static func integer(_ rows: PostgresRowSequence) async throws -> Int {
        for try await row in rows { return Int(try row.decode(Int64.self)) }
        return 0
    }

    public func createSubscription(_ subscription: PushSubscriptionRecord) async throws(PushStoreError) {
        try await transaction { [logger] connection in
            try await connection.query(
                """
                INSERT INTO kith_push_subscriptions (id, secret_digest, capability_digest, vapid_key, created_at)
                VALUES (\(subscription.id), \(Data(subscription.secretDigest)), \(Data(subscription.capabilityDigest)),
                \(subscription.vapidKey.map { Data($0) }), \(subscription.createdAt))
                """, logger: logger)
        }
    }

    public func subscription(capabilityDigest: [UInt8]) async throws(PushStoreError) -> PushCapabilityLookup? {
        try await transaction { [logger] connection in
            guard let (record, deleted) = try await Self.subscriptions(connection.query(
                "SELECT \(unescaped: Self.subscriptionColumns) FROM kith_push_subscriptions WHERE capability_digest = \(Data(capabilityDigest))",
                logger: logger)).first else { return nil }
            return deleted ? .deleted : .live(record)
        }
    }

    public func subscription(secretDigest: [UInt8]) async throws(PushStoreError) -> PushSubscriptionRecord? {
        try await transaction { [logger] connection in
            try await Self.subscriptions(connection.query(
                "SELECT \(unescaped: Self.subscriptionColumns) FROM kith_push_subscriptions WHERE secret_digest = \(Data(secretDigest)) AND deleted_at IS NULL",
                logger: logger)).first?.0
        }
    }

    public func deleteSubscription(secretDigest: [UInt8], now: Int64) async throws(PushStoreError) -> Bool {
        try await transaction { [logger] connection in
            var id: String?
            for try await value in try await connection.query(
                "SELECT id FROM kith_push_subscriptions WHERE secret_digest = \(Data(secretDigest)) AND deleted_at IS NULL FOR UPDATE",
                logger: logger).decode(String.self) {
                id = value
            }
            guard let id else { return false }
            try await connection.query("DELETE FROM kith_push_messages WHERE subscription_id = \(id)", logger: logger)
            try await connection.query("UPDATE kith_push_subscriptions SET deleted_at = \(now), vapid_key = NULL WHERE id = \(id)", logger: logger)
            return true
        }
    }

    public func storeMessage(_ message: PushMessageRecord, maximumPerSubscription: Int) async throws(PushStoreError) -> Int {
        try await transaction { [logger] connection in
            try await connection.query("SELECT 1 FROM kith_push_subscriptions WHERE id = \(message.subscriptionID) FOR UPDATE", logger: logger)
            var dropped = 0
            if let topic = message.topic {
                dropped += try await Self.count(connection.query(
                    "DELETE FROM kith_push_messages WHERE subscription_id = \(message.subscriptionID) AND topic = \(topic) RETURNING 1", logger: logger))
            }
            try await connection.query(
                """
                INSERT INTO kith_push_messages (id, subscription_id, body, urgency, topic, created_at, expires_at)
                VALUES (\(message.id), \(message.subscriptionID), \(Data(message.body)), \(message.urgency), \(message.topic), \(message.createdAt), \(message.expiresAt))
                """, logger: logger)
            // Every node (this one included) hears of it at commit: see watchStoredMessages.
            try await connection.query("SELECT pg_notify(\(Self.messageChannel), \(message.subscriptionID))", logger: logger)
            let keep = max(1, maximumPerSubscription)
            dropped += try await Self.count(connection.query(
                """
                DELETE FROM kith_push_messages WHERE subscription_id = \(message.subscriptionID) AND id NOT IN
                (SELECT id FROM kith_push_messages WHERE subscription_id = \(message.subscriptionID) ORDER BY created_at DESC, seq DESC LIMIT \(keep))
                RETURNING 1
                """, logger: logger))
            return dropped
        }
    }

    /// The `LISTEN` channel on which every stored message's subscription id is announced.
    static let messageChannel = "kith_push_messages"

    /// Listens on ``messageChannel`` (reconnecting after a failure) until cancelled.
    public func watchStoredMessages(_ onStored: @escaping @Sendable (String) async -> Void) async {
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: Self.messageChannel) { notifications in
                        for try await notification in notifications { await onStored(notification.payload) }
                    }
                }
            } catch {
                if Task.isCancelled { return }
                logger.error("push: message listener failed, reconnecting", metadata: ["error": "\(error)"])
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    public func pendingMessages(subscriptionID: String, now: Int64, limit: Int) async throws(PushStoreError) -> [PushMessageRecord] {
        try await transaction { [logger] connection in
            let rows = try await connection.query(
                """
                SELECT id, subscription_id, body, urgency, topic, created_at, expires_at FROM kith_push_messages
                WHERE subscription_id = \(subscriptionID) AND expires_at > \(now) ORDER BY created_at, seq LIMIT \(limit)
                """, logger: logger)
            var messages: [PushMessageRecord] = []
            for try await (id, subscription, body, urgency, topic, created, expires) in rows.decode((String, String, Data, String, String?, Int64, Int64).self) {
                messages.append(PushMessageRecord(
                    id: id, subscriptionID: subscription, body: Array(body), urgency: urgency, topic: topic, createdAt: created, expiresAt: expires))
            }
            return messages
        }
    }

    public func acknowledge(subscriptionID: String, messageID: String) async throws(PushStoreError) -> Bool {
        try await transaction { [logger] connection in
            try await Self.count(connection.query(
                "DELETE FROM kith_push_messages WHERE subscription_id = \(subscriptionID) AND id = \(messageID) RETURNING 1", logger: logger)) > 0
        }
    }

    public func sweepPush(now: Int64, tombstonesBefore: Int64) async throws(PushStoreError) -> PushSweepOutcome {
        try await transaction { [logger] connection in
            let tokens = try await Self.count(connection.query("DELETE FROM kith_push_tokens WHERE expires_at <= \(now) RETURNING 1", logger: logger))
            let messages = try await Self.count(connection.query("DELETE FROM kith_push_messages WHERE expires_at <= \(now) RETURNING 1", logger: logger))
            let tombstones = try await Self.count(connection.query(
                "DELETE FROM kith_push_subscriptions WHERE deleted_at IS NOT NULL AND deleted_at <= \(tombstonesBefore) RETURNING 1", logger: logger))
            return PushSweepOutcome(tokensDeleted: tokens, messagesDeleted: messages, tombstonesDeleted: tombstones)
        }
    }
}
