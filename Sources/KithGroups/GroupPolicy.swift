import KithIdentity
import KithMLS

/// Kith's group policy, a GroupContext extension every member agrees on: who commits.
///
/// Kith has no delivery service to order commits, so one member — the committer, the creator by default — is the only
/// one whose commits count; everyone else proposes (docs/GROUPS.md, "One history"). Because the policy lives in the
/// GroupContext, it changes only through a commit, i.e. only the committer hands the role over.
///
/// Wire (TLS presentation language, RFC 8446 §3): `uint8 version = 1; opaque committer<V>` (32 bytes, a feed id).
public struct GroupPolicy: Sendable, Hashable {
    /// The private-use GroupContext extension type carrying the policy (RFC 9420 §17.3: 0xF000–0xFFFF).
    public static let extensionType = ExtensionType(rawValue: 0xFF10)
    /// The encoding version.
    static let version: UInt8 = 1

    /// The only feed whose commits advance the group.
    public var committer: FeedID

    /// Creates a policy.
    public init(committer: FeedID) {
        self.committer = committer
    }

    /// The GroupContext extension.
    public var groupContextExtension: Extension {
        var writer = TLSWriter()
        writer.writeUInt8(Self.version)
        writer.writeOpaque(committer.rawBytes)
        return Extension(type: Self.extensionType, data: writer.bytes)
    }

    /// Reads the policy from a GroupContext's extensions.
    public init(extensions: [Extension]) throws(GroupError) {
        guard let data = extensions.data(of: Self.extensionType) else { throw .missingPolicy }
        do {
            var reader = TLSReader(data)
            guard try reader.readUInt8() == Self.version else { throw GroupError.missingPolicy }
            let raw = try reader.readOpaque()
            try reader.expectEnd()
            committer = try FeedID(rawBytes: raw)
        } catch {
            throw .missingPolicy
        }
    }
}
