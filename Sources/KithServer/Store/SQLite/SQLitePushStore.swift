import Foundation
import GRDB
import KithPushDelivery

/// The embedded default ``PushStore``: one SQLite file (or memory), for one node.
public final class SQLitePushStore: PushStore {
    let database: DatabaseQueue

    private init(database: DatabaseQueue) { self.database = database }

    /// Opens (creating if needed) the database at `path`, or an in-memory one when nil, and applies the migrations.
    public static func open(path: String?) throws(PushStoreError) -> SQLitePushStore {
        do {
            // Knocks are wake-ups: losing the last few to a power loss is acceptable, a corrupt file is not.
            let queue = try ServerSQLite.open(path: path, migrator: PushSchema.migrator, relaxedDurability: true)
            return SQLitePushStore(database: queue)
        } catch {
            throw .openFailed(path: path ?? ":memory:", reason: "\(error)")
        }
    }

    func write<Value: Sendable>(_ body: @escaping @Sendable (Database) throws -> Value) async throws(PushStoreError) -> Value {
        do {
            return try await database.write(body)
        } catch {
            throw .queryFailed("\(error)")
        }
    }

    // MARK: Accounts

    public func createAccount(_ account: PushAccount) async throws(PushStoreError) -> Bool {
        try await write { db in
            guard try Int.fetchOne(db, sql: "SELECT 1 FROM push_accounts WHERE username = ?", arguments: [account.username]) == nil else { return false }
            try db.execute(
                sql: "INSERT INTO push_accounts (id, username, email, password_record, auth_digest, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [account.id, account.username, account.email, account.passwordRecord, Data(account.authDigest), account.createdAt])
            return true
        }
    }

    public func account(username: String) async throws(PushStoreError) -> PushAccount? {
        try await write { db in try Row.fetchOne(db, sql: "SELECT * FROM push_accounts WHERE username = ?", arguments: [username]).map(Self.accountRow) }
    }

    public func account(authDigest: [UInt8]) async throws(PushStoreError) -> PushAccount? {
        try await write { db in try Row.fetchOne(db, sql: "SELECT * FROM push_accounts WHERE auth_digest = ?", arguments: [Data(authDigest)]).map(Self.accountRow) }
    }

    public func replaceAuthDigest(accountID: String, digest: [UInt8]) async throws(PushStoreError) {
        try await write { db in try db.execute(sql: "UPDATE push_accounts SET auth_digest = ? WHERE id = ?", arguments: [Data(digest), accountID]) }
    }

    public func deleteAccount(id: String) async throws(PushStoreError) -> Bool {
        try await write { db in
            try db.execute(sql: "DELETE FROM push_accounts WHERE id = ?", arguments: [id])
            return db.changesCount > 0
        }
    }

    static func accountRow(_ row: Row) -> PushAccount {
        PushAccount(
            id: row["id"], username: row["username"], email: row["email"], passwordRecord: row["password_record"],
            authDigest: Array((row["auth_digest"] as Data?) ?? Data()), createdAt: row["created_at"])
    }

    // MARK: Devices

    public func registerDevice(_ device: PushDevice, maximumPerAccount: Int) async throws(PushStoreError) -> DeviceRegistration {
        try await write { db in
            if let row = try Row.fetchOne(
                db, sql: "SELECT * FROM push_devices WHERE owner = ? AND kind = ? AND registration_id = ?",
                arguments: [device.owner, device.kind.rawValue, device.registrationID]) {
                var existing = Self.deviceRow(row)
                existing.name = device.name ?? existing.name
                existing.deviceID = device.deviceID ?? existing.deviceID
                existing.p256dh = device.p256dh ?? existing.p256dh
                existing.auth = device.auth ?? existing.auth
                existing.active = true
                try Self.update(db, existing)
                return .existing(existing)
            }
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM push_devices WHERE owner = ?", arguments: [device.owner]) ?? 0
            guard count < maximumPerAccount else { return .limitReached }
            try db.execute(
                sql: """
                    INSERT INTO push_devices (id, owner, kind, name, active, registration_id, device_id, p256dh, auth, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [device.id, device.owner, device.kind.rawValue, device.name, device.active, device.registrationID,
                            device.deviceID, device.p256dh, device.auth, device.createdAt])
            return .created(device)
        }
    }

    public func devices(owner: String, kind: PushTargetKind) async throws(PushStoreError) -> [PushDevice] {
        try await write { db in
            try Row.fetchAll(db, sql: "SELECT * FROM push_devices WHERE owner = ? AND kind = ? ORDER BY created_at, rowid", arguments: [owner, kind.rawValue])
                .map(Self.deviceRow)
        }
    }

    public func device(owner: String, kind: PushTargetKind, id: String) async throws(PushStoreError) -> PushDevice? {
        try await write { db in
            try Row.fetchOne(db, sql: "SELECT * FROM push_devices WHERE owner = ? AND kind = ? AND id = ?", arguments: [owner, kind.rawValue, id])
                .map(Self.deviceRow)
        }
    }

    public func updateDevice(_ device: PushDevice) async throws(PushStoreError) -> Bool {
        try await write { db in
            try Self.update(db, device)
            return db.changesCount > 0
        }
    }

    static func update(_ db: Database, _ device: PushDevice) throws {
        try db.execute(
            sql: "UPDATE push_devices SET name = ?, active = ?, registration_id = ?, device_id = ?, p256dh = ?, auth = ? WHERE id = ? AND owner = ?",
            arguments: [device.name, device.active, device.registrationID, device.deviceID, device.p256dh, device.auth, device.id, device.owner])
    }

    public func deleteDevice(owner: String, kind: PushTargetKind, id: String) async throws(PushStoreError) -> Bool {
        try await write { db in
            try db.execute(sql: "DELETE FROM push_devices WHERE owner = ? AND kind = ? AND id = ?", arguments: [owner, kind.rawValue, id])
            return db.changesCount > 0
        }
    }

    public func deactivateDevice(id: String) async throws(PushStoreError) {
        try await write { db in try db.execute(sql: "UPDATE push_devices SET active = 0 WHERE id = ?", arguments: [id]) }
    }

    static func deviceRow(_ row: Row) -> PushDevice {
        PushDevice(
            id: row["id"], owner: row["owner"], kind: PushTargetKind(rawValue: row["kind"]) ?? .apns, name: row["name"], active: row["active"],
            registrationID: row["registration_id"], deviceID: row["device_id"], p256dh: row["p256dh"], auth: row["auth"], createdAt: row["created_at"])
    }

    // MARK: Tokens

    public func addTokens(_ tokens: [PushTokenRecord], maximumPerAccount: Int) async throws(PushStoreError) -> Bool {
        guard let owner = tokens.first?.owner else { return true }
        return try await write { db in
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM push_tokens WHERE owner = ?", arguments: [owner]) ?? 0
            guard count + tokens.count <= maximumPerAccount else { return false }
            for token in tokens {
                try db.execute(
                    sql: """
                        INSERT INTO push_tokens (digest, owner, device_id, device_kind, name, created_at, expires_at, derivation_nonce)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        Data(token.digest), token.owner, token.deviceID, token.deviceKind.rawValue, token.name, token.createdAt, token.expiresAt,
                        token.derivationNonce.map { Data($0) },
                    ])
            }
            return true
        }
    }

    public func tokens(owner: String) async throws(PushStoreError) -> [PushTokenRecord] {
        try await write { db in
            try Row.fetchAll(db, sql: "SELECT * FROM push_tokens WHERE owner = ? ORDER BY created_at, rowid", arguments: [owner]).map(Self.tokenRow)
        }
    }

    public func token(owner: String, digest: [UInt8]) async throws(PushStoreError) -> PushTokenRecord? {
        try await write { db in
            try Row.fetchOne(db, sql: "SELECT * FROM push_tokens WHERE owner = ? AND digest = ?", arguments: [owner, Data(digest)]).map(Self.tokenRow)
        }
    }

    public func deleteToken(owner: String, digest: [UInt8]) async throws(PushStoreError) -> Bool {
        try await write { db in
            try db.execute(sql: "DELETE FROM push_tokens WHERE owner = ? AND digest = ?", arguments: [owner, Data(digest)])
            return db.changesCount > 0
        }
    }

    public func knockTargets(tokenDigest: [UInt8], now: Int64) async throws(PushStoreError) -> [PushDevice]? {
        try await write { db in
            guard let owner = try String.fetchOne(
                db, sql: "SELECT owner FROM push_tokens WHERE digest = ? AND expires_at > ?", arguments: [Data(tokenDigest), now]) else { return nil }
            return try Row.fetchAll(db, sql: "SELECT * FROM push_devices WHERE owner = ? AND active = 1 ORDER BY created_at, rowid", arguments: [owner])
                .map(Self.deviceRow)
        }
    }

    static func tokenRow(_ row: Row) -> PushTokenRecord {
        PushTokenRecord(
            digest: Array((row["digest"] as Data?) ?? Data()), owner: row["owner"], deviceID: row["device_id"],
            deviceKind: PushTargetKind(rawValue: row["device_kind"]) ?? .apns, name: row["name"], createdAt: row["created_at"], expiresAt: row["expires_at"],
            derivationNonce: (row["derivation_nonce"] as Data?).map { Array($0) })
    }

    // MARK: Push service

    public func accountCount() async throws(PushStoreError) -> Int {
        try await write { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM push_accounts") ?? 0 }
    }

    public func subscriptionCount() async throws(PushStoreError) -> Int {
        try await write { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM push_subscriptions WHERE deleted_at IS NULL") ?? 0 }
    }

    public func createSubscription(_ subscription: PushSubscriptionRecord) async throws(PushStoreError) {
        try await write { db in
            try db.execute(
                sql: "INSERT INTO push_subscriptions (id, secret_digest, capability_digest, vapid_key, created_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [subscription.id, Data(subscription.secretDigest), Data(subscription.capabilityDigest),
                            subscription.vapidKey.map { Data($0) }, subscription.createdAt])
        }
    }

    public func subscription(capabilityDigest: [UInt8]) async throws(PushStoreError) -> PushCapabilityLookup? {
        try await write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM push_subscriptions WHERE capability_digest = ?", arguments: [Data(capabilityDigest)])
            else { return nil }
            if (row["deleted_at"] as Int64?) != nil { return .deleted }
            return .live(Self.subscriptionRow(row))
        }
    }

    public func subscription(secretDigest: [UInt8]) async throws(PushStoreError) -> PushSubscriptionRecord? {
        try await write { db in
            try Row.fetchOne(db, sql: "SELECT * FROM push_subscriptions WHERE secret_digest = ? AND deleted_at IS NULL", arguments: [Data(secretDigest)])
                .map(Self.subscriptionRow)
        }
    }

    public func deleteSubscription(secretDigest: [UInt8], now: Int64) async throws(PushStoreError) -> Bool {
        try await write { db in
            guard let id = try String.fetchOne(
                db, sql: "SELECT id FROM push_subscriptions WHERE secret_digest = ? AND deleted_at IS NULL", arguments: [Data(secretDigest)])
            else { return false }
            try db.execute(sql: "DELETE FROM push_messages WHERE subscription_id = ?", arguments: [id])
            try db.execute(sql: "UPDATE push_subscriptions SET deleted_at = ?, vapid_key = NULL WHERE id = ?", arguments: [now, id])
            return true
        }
    }

    public func storeMessage(_ message: PushMessageRecord, maximumPerSubscription: Int) async throws(PushStoreError) -> Int {
        try await write { db in
            if let topic = message.topic {
                try db.execute(sql: "DELETE FROM push_messages WHERE subscription_id = ? AND topic = ?", arguments: [message.subscriptionID, topic])
            }
            try db.execute(
                sql: "INSERT INTO push_messages (id, subscription_id, body, urgency, topic, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                arguments: [message.id, message.subscriptionID, Data(message.body), message.urgency, message.topic, message.createdAt, message.expiresAt])
            try db.execute(
                sql: """
                    DELETE FROM push_messages WHERE subscription_id = ? AND id NOT IN
                    (SELECT id FROM push_messages WHERE subscription_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?)
                    """,
                arguments: [message.subscriptionID, message.subscriptionID, max(1, maximumPerSubscription)])
            return db.changesCount
        }
    }

    public func pendingMessages(subscriptionID: String, now: Int64, limit: Int) async throws(PushStoreError) -> [PushMessageRecord] {
        try await write { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM push_messages WHERE subscription_id = ? AND expires_at > ? ORDER BY created_at, rowid LIMIT ?",
                arguments: [subscriptionID, now, limit]
            ).map(Self.messageRow)
        }
    }

    public func acknowledge(subscriptionID: String, messageID: String) async throws(PushStoreError) -> Bool {
        try await write { db in
            try db.execute(sql: "DELETE FROM push_messages WHERE subscription_id = ? AND id = ?", arguments: [subscriptionID, messageID])
            return db.changesCount > 0
        }
    }

    public func sweepPush(now: Int64, tombstonesBefore: Int64) async throws(PushStoreError) -> PushSweepOutcome {
        try await write { db in
            try db.execute(sql: "DELETE FROM push_tokens WHERE expires_at <= ?", arguments: [now])
            let tokens = db.changesCount
            try db.execute(sql: "DELETE FROM push_messages WHERE expires_at <= ?", arguments: [now])
            let messages = db.changesCount
            try db.execute(sql: "DELETE FROM push_subscriptions WHERE deleted_at IS NOT NULL AND deleted_at <= ?", arguments: [tombstonesBefore])
            return PushSweepOutcome(tokensDeleted: tokens, messagesDeleted: messages, tombstonesDeleted: db.changesCount)
        }
    }

    static func subscriptionRow(_ row: Row) -> PushSubscriptionRecord {
        PushSubscriptionRecord(
            id: row["id"], secretDigest: Array((row["secret_digest"] as Data?) ?? Data()),
            capabilityDigest: Array((row["capability_digest"] as Data?) ?? Data()),
            vapidKey: (row["vapid_key"] as Data?).map { Array($0) }, createdAt: row["created_at"])
    }

    static func messageRow(_ row: Row) -> PushMessageRecord {
        PushMessageRecord(
            id: row["id"], subscriptionID: row["subscription_id"], body: Array((row["body"] as Data?) ?? Data()), urgency: row["urgency"],
            topic: row["topic"], createdAt: row["created_at"], expiresAt: row["expires_at"])
    }
}
