import Crypto
import KithIdentity
import KithMLS

/// A committer's signed word that one named member may readmit it (docs/CONTINUITY.md section 8, "When the committer
/// was the one restored").
///
/// Only the committer commits (docs/GROUPS.md, "One history"), so a committer restored from a backup, whose group state
/// the backup never carried, cannot be readmitted by anyone under the ordinary rule. With this warrant it names one
/// member, the *proxy*, and the one KeyPackage to put in its place. Every member accepts the proxy's commit because the
/// warrant is signed by the original identity key the committer's current leaf carries (``GroupIdentityKey``), and the
/// commit may do exactly one thing: remove the committer's leaves and add that KeyPackage, the committer keeping its
/// role. The warrant travels inside the commit (in the group's policy, ``GroupPolicy/readmissions``), so every member
/// checks the same bytes and reaches the same verdict.
///
/// Replays are refused deterministically: the policy keeps the last warrant used for each committer feed, and a new one
/// must be issued later than it.
///
/// Wire (TLS presentation language): `opaque group_id<V>; opaque committer<V>; opaque proxy<V>;
/// opaque key_package_ref<V>; uint64 issued_at; opaque signature<V>`. The signature is Ed25519 over the label
/// `Kith committer readmission v1` followed by every field before it.
public struct CommitterReadmission: Sendable, Hashable {
    /// Largest encoded warrant read (an honest one is 225 bytes).
    public static let maxEncodedBytes = 512
    /// The signature's domain separation label.
    static let label = Array("Kith committer readmission v1".utf8)

    /// The group.
    public let groupID: GroupID
    /// The committer asking to be readmitted (the signer).
    public let committer: FeedID
    /// The only member whose commit the warrant authorises.
    public let proxy: FeedID
    /// The reference (RFC 9420 §5.2) of the committer's new KeyPackage, the only one the commit may add.
    public let keyPackageReference: [UInt8]
    /// When the committer issued it (seconds since 1970, the committer's clock): only ordering matters.
    public let issuedAt: UInt64
    /// Ed25519 signature by the committer's original identity key.
    public let signature: [UInt8]

    /// Signs a warrant with the committer's original identity key (the key whose SHA-256 is `committer`).
    ///
    /// - Parameters:
    ///   - groupID: the group to be readmitted to.
    ///   - committer: the signer's feed.
    ///   - proxy: the member allowed to commit the readmission.
    ///   - keyPackageReference: the reference of the KeyPackage made for `proxy`.
    ///   - issuedAt: now, on the signer's clock.
    ///   - identityKey: the original identity private key of `committer`.
    public static func sign(
        groupID: GroupID, committer: FeedID, proxy: FeedID, keyPackageReference: [UInt8], issuedAt: UInt64,
        identityKey: Curve25519.Signing.PrivateKey
    ) throws(GroupError) -> CommitterReadmission {
        guard FeedID(identityKey: identityKey.publicKey) == committer else {
            throw .committerReadmission("the signing key is not the committer's original identity key")
        }
        guard proxy != committer else { throw .committerReadmission("the proxy must be another member") }
        let body = signedBytes(groupID: groupID, committer: committer, proxy: proxy, keyPackageReference: keyPackageReference, issuedAt: issuedAt)
        let signature: [UInt8]
        do { signature = Array(try identityKey.signature(for: body)) } catch { throw .committerReadmission("signing failed: \(error)") }
        return CommitterReadmission(
            groupID: groupID, committer: committer, proxy: proxy, keyPackageReference: keyPackageReference, issuedAt: issuedAt, signature: signature)
    }

    private init(groupID: GroupID, committer: FeedID, proxy: FeedID, keyPackageReference: [UInt8], issuedAt: UInt64, signature: [UInt8]) {
        self.groupID = groupID
        self.committer = committer
        self.proxy = proxy
        self.keyPackageReference = keyPackageReference
        self.issuedAt = issuedAt
        self.signature = signature
    }

    /// True when `identityKey` (which must hash to ``committer``) signed this warrant.
    public func isSigned(by identityKey: Curve25519.Signing.PublicKey) -> Bool {
        guard FeedID(identityKey: identityKey) == committer else { return false }
        let body = Self.signedBytes(
            groupID: groupID, committer: committer, proxy: proxy, keyPackageReference: keyPackageReference, issuedAt: issuedAt)
        return identityKey.isValidSignature(signature, for: body)
    }

    /// The TLS encoding.
    public var encoded: [UInt8] {
        var writer = TLSWriter()
        Self.writeFields(
            &writer, groupID: groupID, committer: committer, proxy: proxy, keyPackageReference: keyPackageReference, issuedAt: issuedAt)
        writer.writeOpaque(signature)
        return writer.bytes
    }

    /// Decodes a warrant (without checking its signature: that needs the group's tree, ``isSigned(by:)``).
    ///
    /// - Throws: ``GroupError/committerReadmission(_:)`` for anything longer than ``maxEncodedBytes``, a field of the
    ///   wrong length, or bytes left over.
    public init(decoding bytes: [UInt8]) throws(GroupError) {
        guard bytes.count <= Self.maxEncodedBytes else { throw .committerReadmission("larger than \(Self.maxEncodedBytes) bytes") }
        var reader = TLSReader(bytes)
        let decoded: CommitterReadmission?
        do {
            decoded = try Self.read(&reader)
            try reader.expectEnd()
        } catch {
            throw .committerReadmission("malformed: \(error)")
        }
        guard let decoded else { throw .committerReadmission("a field has the wrong length") }
        self = decoded
    }

    /// Reads one warrant from `reader` (nil when a field has the wrong length).
    static func read(_ reader: inout TLSReader) throws -> CommitterReadmission? {
        let group = try reader.readOpaque()
        let committer = try reader.readOpaque()
        let proxy = try reader.readOpaque()
        let reference = try reader.readOpaque()
        let issuedAt = try reader.readUInt64()
        let signature = try reader.readOpaque()
        guard let groupID = try? GroupID(rawBytes: group), let committerFeed = try? FeedID(rawBytes: committer),
              let proxyFeed = try? FeedID(rawBytes: proxy), (1...64).contains(reference.count), signature.count == 64 else { return nil }
        return CommitterReadmission(
            groupID: groupID, committer: committerFeed, proxy: proxyFeed, keyPackageReference: reference, issuedAt: issuedAt, signature: signature)
    }

    /// Writes the warrant to `writer` (inside the group policy).
    func write(to writer: inout TLSWriter) {
        writer.writeBytes(encoded)
    }

    private static func writeFields(
        _ writer: inout TLSWriter, groupID: GroupID, committer: FeedID, proxy: FeedID, keyPackageReference: [UInt8], issuedAt: UInt64
    ) {
        writer.writeOpaque(groupID.rawBytes)
        writer.writeOpaque(committer.rawBytes)
        writer.writeOpaque(proxy.rawBytes)
        writer.writeOpaque(keyPackageReference)
        writer.writeUInt64(issuedAt)
    }

    private static func signedBytes(
        groupID: GroupID, committer: FeedID, proxy: FeedID, keyPackageReference: [UInt8], issuedAt: UInt64
    ) -> [UInt8] {
        var writer = TLSWriter()
        writeFields(&writer, groupID: groupID, committer: committer, proxy: proxy, keyPackageReference: keyPackageReference, issuedAt: issuedAt)
        return label + writer.bytes
    }
}
