import Crypto
import KithIdentity
import KithMLS

/// KeyPackages of a Kith identity: an offer to be added to groups, handed to one contact over the direct session
/// (the `mls_key_package` content) and kept here with its private keys until it is used once.
public enum GroupKeyPackage {
    /// How long an offered KeyPackage stays valid (RFC 9420 §10: lifetimes should be bounded).
    public static let lifetimeSeconds: UInt64 = 180 * 24 * 3600
    /// Clock tolerance before `not_before`.
    public static let clockSkewSeconds: UInt64 = 24 * 3600

    /// A fresh KeyPackage for `feed`, with its own signature key (never the identity key: a group key leaks nothing
    /// about the identity's other keys), valid from `now` for ``lifetimeSeconds``.
    ///
    /// - Parameter identityKey: the feed's original identity key (its SHA-256 is `feed`), carried in the leaf so other
    ///   members can follow the feed (``GroupIdentityKey``).
    public static func generate(
        for feed: FeedID, identityKey: Curve25519.Signing.PublicKey, now: UInt64
    ) throws(GroupError) -> (keyPackage: KeyPackage, secrets: KeyPackageSecrets) {
        guard FeedID(identityKey: identityKey) == feed else { throw .invalidKeyPackage("the identity key is not the feed's") }
        let suite = try GroupSuite.cipherSuite()
        do {
            return try KeyPackage.generate(
                suite: suite, credential: GroupCredential.credential(for: feed), signatureKeys: suite.signature.generateKeyPair(),
                lifetime: Lifetime(notBefore: now > clockSkewSeconds ? now - clockSkewSeconds : 0, notAfter: now + lifetimeSeconds),
                capabilities: GroupSuite.capabilities, leafExtensions: [GroupIdentityKey.leafExtension(identityKey)]
            )
        } catch {
            throw .mls("\(error)")
        }
    }

    /// Checks a KeyPackage handed over by `owner`: the suite, its signature, and that its credential names `owner`
    /// (a contact cannot hand over someone else's KeyPackage).
    public static func check(_ keyPackage: KeyPackage, owner: FeedID) throws(GroupError) {
        let suite = try GroupSuite.cipherSuite()
        guard keyPackage.cipherSuite == suite.id else { throw .invalidKeyPackage("cipher suite \(keyPackage.cipherSuite) is not Kith's") }
        guard keyPackage.version == .mls10 else { throw .invalidKeyPackage("protocol version") }
        guard try GroupCredential.feed(of: keyPackage.leafNode.credential) == owner else {
            throw .invalidKeyPackage("its credential names another feed than \(owner)")
        }
        guard GroupIdentityKey.feedKey(of: keyPackage.leafNode)?.feed == owner else {
            throw .invalidKeyPackage("its leaf does not carry the identity key of \(owner)")
        }
        guard keyPackage.verifySignature(suite: suite) else { throw .invalidKeyPackage("bad signature") }
    }

    /// Decodes the TLS encoding of a KeyPackage (bounded by the caller's size limit).
    public static func decode(_ bytes: [UInt8]) throws(GroupError) -> KeyPackage {
        guard bytes.count <= maxEncodedBytes else { throw .invalidKeyPackage("larger than \(maxEncodedBytes) bytes") }
        do { return try KeyPackage(tlsEncoded: bytes) } catch { throw .invalidKeyPackage("\(error)") }
    }

    /// The largest KeyPackage accepted (a Kith KeyPackage is about 300 bytes).
    public static let maxEncodedBytes = 4096

    /// The KeyPackageRef (RFC 9420 §5.2), which Welcomes name.
    public static func reference(_ keyPackage: KeyPackage) throws(GroupError) -> [UInt8] {
        keyPackage.reference(suite: try GroupSuite.cipherSuite())
    }
}

extension GroupKeyPackage {
    /// The private keys of a KeyPackage as bytes for sealed storage: three `opaque<V>` fields.
    public static func encode(_ secrets: KeyPackageSecrets) -> [UInt8] {
        var writer = TLSWriter()
        writer.writeOpaque(secrets.initPrivateKey)
        writer.writeOpaque(secrets.encryptionPrivateKey)
        writer.writeOpaque(secrets.signaturePrivateKey)
        return writer.bytes
    }

    /// Reads ``encode(_:)`` bytes.
    public static func decodeSecrets(_ bytes: [UInt8]) throws(GroupError) -> KeyPackageSecrets {
        do {
            var reader = TLSReader(bytes)
            let secrets = KeyPackageSecrets(
                initPrivateKey: try reader.readOpaque(), encryptionPrivateKey: try reader.readOpaque(), signaturePrivateKey: try reader.readOpaque()
            )
            try reader.expectEnd()
            return secrets
        } catch {
            throw .damagedState("KeyPackage secrets: \(error)")
        }
    }
}
