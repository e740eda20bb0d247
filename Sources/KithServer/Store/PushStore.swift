import KithPushDelivery

/// Everything the push gateway and the push service keep: accounts, devices, whitelist tokens
/// (as digests), push subscriptions (as digests) and their stored messages.
///
/// Every method is one transaction, and every bound that must hold under concurrency (devices and
/// tokens per account, messages per subscription, one device per owner and registration id) is
/// enforced inside it. Times are milliseconds since the epoch on the calling server's clock. No
/// method takes or returns a plaintext token, capability or subscription secret.
public protocol PushStore: Sendable {
    // MARK: Accounts

    /// Creates `account`; false when its username is taken (nothing changes).
    func createAccount(_ account: PushAccount) async throws(PushStoreError) -> Bool
    /// The account named `username`.
    func account(username: String) async throws(PushStoreError) -> PushAccount?
    /// The account whose API token has this SHA-256 digest.
    func account(authDigest: [UInt8]) async throws(PushStoreError) -> PushAccount?
    /// Replaces the account's API token digest (a login issues a fresh token).
    func replaceAuthDigest(accountID: String, digest: [UInt8]) async throws(PushStoreError)
    /// Deletes the account with its devices and tokens; false when absent.
    func deleteAccount(id: String) async throws(PushStoreError) -> Bool

    // MARK: Devices

    /// Registers `device` for its owner: a device of the same owner, kind and registration id
    /// (endpoint for Web Push) is updated (name, keys, device id, active) and answered as
    /// `.existing`; a new one is refused past `maximumPerAccount`.
    func registerDevice(_ device: PushDevice, maximumPerAccount: Int) async throws(PushStoreError) -> DeviceRegistration
    /// The owner's devices of `kind`, oldest first.
    func devices(owner: String, kind: PushTargetKind) async throws(PushStoreError) -> [PushDevice]
    /// One of the owner's devices of `kind`.
    func device(owner: String, kind: PushTargetKind, id: String) async throws(PushStoreError) -> PushDevice?
    /// Rewrites the device's mutable fields (name, active, registration id, device id, keys); false when absent.
    func updateDevice(_ device: PushDevice) async throws(PushStoreError) -> Bool
    /// Deletes one of the owner's devices and its tokens; false when absent.
    func deleteDevice(owner: String, kind: PushTargetKind, id: String) async throws(PushStoreError) -> Bool
    /// Marks a device inactive (a provider said it is gone).
    func deactivateDevice(id: String) async throws(PushStoreError)

    // MARK: Whitelist tokens

    /// Adds `tokens` (all for one owner); false, adding none, when the owner would hold more than `maximumPerAccount`.
    func addTokens(_ tokens: [PushTokenRecord], maximumPerAccount: Int) async throws(PushStoreError) -> Bool
    /// The owner's tokens, oldest first.
    func tokens(owner: String) async throws(PushStoreError) -> [PushTokenRecord]
    /// The owner's token with this digest.
    func token(owner: String, digest: [UInt8]) async throws(PushStoreError) -> PushTokenRecord?
    /// Revokes the owner's token with this digest; false when absent.
    func deleteToken(owner: String, digest: [UInt8]) async throws(PushStoreError) -> Bool
    /// The active devices a knock with this token reaches (every active device of the token's
    /// owner); nil when the token is unknown, revoked or expired at `now`.
    func knockTargets(tokenDigest: [UInt8], now: Int64) async throws(PushStoreError) -> [PushDevice]?

    // MARK: Push service

    /// Stores a new subscription.
    func createSubscription(_ subscription: PushSubscriptionRecord) async throws(PushStoreError)
    /// What the capability with this digest names: a live or deleted subscription, or nil.
    func subscription(capabilityDigest: [UInt8]) async throws(PushStoreError) -> PushCapabilityLookup?
    /// The live subscription whose secret has this digest.
    func subscription(secretDigest: [UInt8]) async throws(PushStoreError) -> PushSubscriptionRecord?
    /// Deletes the subscription and its messages, keeping a tombstone (410) until `now` + the
    /// tombstone lifetime passes the sweep; false when absent.
    func deleteSubscription(secretDigest: [UInt8], now: Int64) async throws(PushStoreError) -> Bool
    /// Stores `message`: replaces a stored message of the same topic, then drops the oldest ones
    /// beyond `maximumPerSubscription`; answers how many were dropped.
    func storeMessage(_ message: PushMessageRecord, maximumPerSubscription: Int) async throws(PushStoreError) -> Int
    /// Unexpired messages of a subscription, oldest first, at most `limit`.
    func pendingMessages(subscriptionID: String, now: Int64, limit: Int) async throws(PushStoreError) -> [PushMessageRecord]
    /// Deletes an acknowledged message; false when it was not there.
    func acknowledge(subscriptionID: String, messageID: String) async throws(PushStoreError) -> Bool

    /// Runs until cancelled, calling `onStored` with the subscription id of every message stored by
    /// any node sharing this store (so a node can write it to its own subscribers at once). A store
    /// for one node has nothing to watch and returns at once (the default).
    func watchStoredMessages(_ onStored: @escaping @Sendable (String) async -> Void) async

    // MARK: Housekeeping

    /// Deletes expired tokens, expired messages, and tombstones older than `tombstonesBefore`.
    func sweepPush(now: Int64, tombstonesBefore: Int64) async throws(PushStoreError) -> PushSweepOutcome

    // MARK: Totals

    /// Accounts stored (the gateway refuses new ones beyond ``PushServerLimits/maximumAccounts``).
    func accountCount() async throws(PushStoreError) -> Int
    /// Live (not deleted) subscriptions stored (beyond ``PushServerLimits/maximumSubscriptions`` none is created).
    func subscriptionCount() async throws(PushStoreError) -> Int
}

extension PushStore {
    /// One node: nothing to watch.
    public func watchStoredMessages(_ onStored: @escaping @Sendable (String) async -> Void) async {}
}

/// What ``PushStore/registerDevice(_:maximumPerAccount:)`` did.
public enum DeviceRegistration: Sendable, Hashable {
    /// A new device (201).
    case created(PushDevice)
    /// The owner's device with that registration id, updated and reactivated (200).
    case existing(PushDevice)
    /// The owner holds the maximum number of devices.
    case limitReached
}

/// What a push sweep deleted.
public struct PushSweepOutcome: Sendable, Hashable {
    /// Expired whitelist tokens.
    public var tokensDeleted: Int
    /// Expired push messages.
    public var messagesDeleted: Int
    /// Forgotten tombstones of deleted subscriptions.
    public var tombstonesDeleted: Int

    /// An outcome with every count.
    public init(tokensDeleted: Int, messagesDeleted: Int, tombstonesDeleted: Int) {
        self.tokensDeleted = tokensDeleted
        self.messagesDeleted = messagesDeleted
        self.tombstonesDeleted = tombstonesDeleted
    }
}

/// Why the push store failed. The detail is for the operator's log; clients get a bare 500.
public enum PushStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The database could not be opened or migrated.
    case openFailed(path: String, reason: String)
    /// A query failed.
    case queryFailed(String)

    /// One sentence with the cause.
    public var description: String {
        switch self {
        case .openFailed(let path, let reason): "cannot open the push database at \(path): \(reason); check the path and its permissions"
        case .queryFailed(let reason): "push database query failed: \(reason)"
        }
    }
}
