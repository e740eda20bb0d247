import KithIdentity
import KithMLS

/// Kith's group policy, a GroupContext extension every member agrees on: who commits.
///
/// Kith has no delivery service to order commits, so one member — the committer, the creator by default — is the only
/// one whose commits count; everyone else proposes (docs/GROUPS.md, "One history"). Because the policy lives in the
/// GroupContext, it changes only through a commit, i.e. only the committer hands the role over.
///
/// Wire (TLS presentation language, RFC 8446 §3): `uint8 version = 1; opaque committer<V>` (32 bytes, a feed id).
/// Once a committer was readmitted through a proxy (``CommitterReadmission``) the policy also keeps the last warrant
/// used for each committer feed, so none can be used twice: `uint8 version = 2; opaque committer<V>;
/// CommitterReadmission readmissions<V>` (version 1 is still written while there is none).
public struct GroupPolicy: Sendable, Hashable {
    /// The private-use GroupContext extension type carrying the policy (RFC 9420 §17.3: 0xF000–0xFFFF).
    public static let extensionType = ExtensionType(rawValue: 0xFF10)
    /// The encoding version without readmissions.
    static let version: UInt8 = 1
    /// The encoding version with readmissions.
    static let versionWithReadmissions: UInt8 = 2
    /// Most readmission warrants a policy keeps (one per committer feed; older committers' are dropped first).
    public static let maxReadmissions = 16

    /// The only feed whose commits advance the group.
    public var committer: FeedID

    /// The last committer readmission used for each committer feed, oldest first (at most ``maxReadmissions``).
    public internal(set) var readmissions: [CommitterReadmission]

    /// Creates a policy.
    public init(committer: FeedID) {
        self.committer = committer
        readmissions = []
    }

    /// The GroupContext extension.
    public var groupContextExtension: Extension {
        var writer = TLSWriter()
        writer.writeUInt8(readmissions.isEmpty ? Self.version : Self.versionWithReadmissions)
        writer.writeOpaque(committer.rawBytes)
        if !readmissions.isEmpty {
            writer.writeVector { inner in
                for readmission in readmissions { readmission.write(to: &inner) }
            }
        }
        return Extension(type: Self.extensionType, data: writer.bytes)
    }

    /// The last readmission used for `feed`, if any.
    public func lastReadmission(of feed: FeedID) -> CommitterReadmission? {
        readmissions.last { $0.committer == feed }
    }

    /// This policy with `readmission` recorded as the last one of its committer (replacing the earlier one).
    func recording(_ readmission: CommitterReadmission) -> GroupPolicy {
        var next = self
        next.readmissions.removeAll { $0.committer == readmission.committer }
        next.readmissions.append(readmission)
        if next.readmissions.count > Self.maxReadmissions { next.readmissions.removeFirst(next.readmissions.count - Self.maxReadmissions) }
        return next
    }

    /// Reads the policy from a GroupContext's extensions.
    public init(extensions: [Extension]) throws(GroupError) {
        guard let data = extensions.data(of: Self.extensionType) else { throw .missingPolicy }
        do {
            var reader = TLSReader(data)
            let version = try reader.readUInt8()
            guard version == Self.version || version == Self.versionWithReadmissions else { throw GroupError.missingPolicy }
            let raw = try reader.readOpaque()
            var readmissions: [CommitterReadmission] = []
            if version == Self.versionWithReadmissions {
                var list = try reader.readVectorReader()
                while !list.isAtEnd {
                    guard readmissions.count < Self.maxReadmissions, let readmission = try CommitterReadmission.read(&list) else {
                        throw GroupError.missingPolicy
                    }
                    readmissions.append(readmission)
                }
                guard !readmissions.isEmpty else { throw GroupError.missingPolicy }
            }
            try reader.expectEnd()
            committer = try FeedID(rawBytes: raw)
            self.readmissions = readmissions
        } catch {
            throw .missingPolicy
        }
    }
}
