import KithCanonical

/// The first record of every backup: what it holds and for whom, as canonical JSON.
///
///     {"backup_id": hex of the header's file id, "blobs": bool, "counts": {kind name: n, …},
///      "created_at": unix seconds, "feed_id": the identity's feed id, "schema": store schema version,
///      "window": messages kept per feed, or null for all}
public struct BackupManifest: Sendable, Equatable {
    /// Hex of the header's random file id.
    public var backupID: String
    /// The feed id of the identity the backup belongs to; a restore refuses another identity's backup.
    public var feedID: String
    /// When the backup was made (Unix seconds).
    public var createdAt: Int64
    /// The store schema version of the writer (its last migration's ordinal).
    public var schemaVersion: Int64
    /// Records by kind name (`contact`, `envelope`, …), as the writer counted them.
    public var counts: [String: Int64]
    /// The most recent envelopes kept per feed, or nil for all.
    public var window: Int64?
    /// Whether blobs are included.
    public var includesBlobs: Bool

    /// Creates a manifest.
    public init(backupID: String, feedID: String, createdAt: Int64, schemaVersion: Int64,
                counts: [String: Int64], window: Int64?, includesBlobs: Bool) {
        self.backupID = backupID
        self.feedID = feedID
        self.createdAt = createdAt
        self.schemaVersion = schemaVersion
        self.counts = counts
        self.window = window
        self.includesBlobs = includesBlobs
    }

    /// The canonical JSON bytes.
    public var encoded: [UInt8] {
        var countMembers = JSONObject()
        for (name, count) in counts.sorted(by: { $0.key < $1.key }) { countMembers[name] = .integer(count) }
        var object = JSONObject()
        object["backup_id"] = .string(backupID)
        object["blobs"] = .bool(includesBlobs)
        object["counts"] = .object(countMembers)
        object["created_at"] = .integer(createdAt)
        object["feed_id"] = .string(feedID)
        object["schema"] = .integer(schemaVersion)
        object["window"] = window.map { .integer($0) } ?? .null
        return CanonicalJSON.serialize(object)
    }

    /// Parses a manifest record body.
    public static func parse(_ body: [UInt8]) throws(BackupError) -> BackupManifest {
        guard body.count <= BackupLimits.maximumManifest else { throw .malformed("the manifest is larger than 64 KiB") }
        let value: JSONValue
        do { value = try CanonicalJSON.parseCanonical(body) } catch { throw .malformed("the manifest is not canonical JSON: \(error)") }
        guard let object = value.objectValue,
              let backupID = object["backup_id"]?.stringValue,
              let feedID = object["feed_id"]?.stringValue,
              let createdAt = object["created_at"]?.integerValue,
              let schema = object["schema"]?.integerValue,
              let blobs = object["blobs"]?.boolValue,
              let countObject = object["counts"]?.objectValue,
              let window = object["window"]
        else { throw .malformed("the manifest lacks a member or has one of the wrong type") }
        var counts: [String: Int64] = [:]
        for (name, count) in countObject.members {
            guard let number = count.integerValue else { throw .malformed("manifest count \(name) is not an integer") }
            counts[name] = number
        }
        guard window.isNull || window.integerValue != nil else { throw .malformed("manifest window is neither null nor an integer") }
        return BackupManifest(backupID: backupID, feedID: feedID, createdAt: createdAt, schemaVersion: schema,
                              counts: counts, window: window.integerValue, includesBlobs: blobs)
    }
}
