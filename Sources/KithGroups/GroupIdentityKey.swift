import Crypto
import KithIdentity
import KithMLS

/// A leaf extension carrying the member's original Ed25519 identity public key, the key whose SHA-256 is its feed id.
///
/// Members need it to follow each other's feeds (a member's group messages are entries of its own feed, verified with
/// that key) without being each other's contacts. It proves nothing about who holds the leaf — that is the
/// committer's word, checked when the KeyPackage arrived over the owner's direct session — but it cannot name a key
/// other than the feed's: ``feedKey(of:)`` checks the hash.
///
/// Wire: `opaque identity_key<V>` (32 bytes).
public enum GroupIdentityKey {
    /// The private-use leaf extension type (RFC 9420 §17.3).
    public static let extensionType = ExtensionType(rawValue: 0xFF11)

    /// The extension for a leaf of `feed`, whose original identity key is `key`.
    public static func leafExtension(_ key: Curve25519.Signing.PublicKey) -> Extension {
        var writer = TLSWriter()
        writer.writeOpaque(key.rawRepresentation)
        return Extension(type: extensionType, data: writer.bytes)
    }

    /// The identity key a member's leaf carries, when it hashes to the feed id of the leaf's credential.
    public static func feedKey(of leaf: LeafNode) -> (feed: FeedID, key: Curve25519.Signing.PublicKey)? {
        guard let feed = try? GroupCredential.feed(of: leaf.credential), let data = leaf.extensions.data(of: extensionType) else { return nil }
        var reader = TLSReader(data)
        guard let raw = try? reader.readOpaque(), (try? reader.expectEnd()) != nil, raw.count == 32,
              let key = try? Curve25519.Signing.PublicKey(rawRepresentation: raw), FeedID(identityKey: key) == feed else { return nil }
        return (feed, key)
    }
}
