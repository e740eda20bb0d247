import KithCanonical
import KithIdentity

/// Tells a guardian to delete the recovery share it holds for the sender (Kith extension type `recovery_revoke`,
/// direct audience only; docs/CONTINUITY.md, "Revoking a set").
///
/// ```json
/// {"generation":2,"owner":"<feed id>","set_id":"<32 hex>","type":"recovery_revoke"}
/// ```
///
/// Every share of `owner` up to and including `generation` is revoked. The guardian deletes what it holds only when
/// `owner` is the contact whose direct message carried this content (the facade checks; a contact cannot revoke
/// someone else's set).
public struct RecoveryRevocation: Sendable, Hashable {
    /// Length of a set id in hex characters (16 bytes).
    public static let setIDHexLength = 32

    /// The owner whose shares are revoked (must be the sender).
    public var owner: FeedID
    /// The newest revoked set's id, lowercase hex.
    public var setID: String
    /// Shares of this generation and older are revoked, 1…2^32-1.
    public var generation: Int64

    /// Creates the content.
    public init(owner: FeedID, setID: String, generation: Int64) {
        self.owner = owner
        self.setID = setID
        self.generation = generation
    }

    init(_ fields: ContentFields) throws(FeedError) {
        owner = try fields.feedID(try fields.requiredString("owner"), "owner")
        setID = try fields.requiredString("set_id")
        guard setID.utf8.count == Self.setIDHexLength, setID.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
            throw fields.fail("'set_id' must be \(Self.setIDHexLength) lowercase hex characters")
        }
        guard let value = fields.object["generation"]?.integerValue else { throw fields.fail("'generation' must be an integer") }
        guard (1...Int64(UInt32.max)).contains(value) else { throw fields.fail("'generation' must be 1...\(UInt32.max)") }
        generation = value
    }

    var jsonMembers: JSONObject {
        var object = JSONObject()
        object["owner"] = .string(owner.string)
        object["set_id"] = .string(setID)
        object["generation"] = .integer(generation)
        return object
    }
}
