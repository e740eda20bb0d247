import Crypto
import Foundation
import KithCanonical

/// The identifier of one pool key: the first 8 bytes of SHA-256 of its compressed public key.
///
/// It travels as the 8-byte identifier of the NanoTDF KAS locator, so the recipient finds the
/// private key without trial decryption (the upstream KID mechanism, not Arkavo's L1M header).
public struct OneTimeKeyID: Hashable, Sendable, CustomStringConvertible {
    /// The identifier's size on the wire (an 8-byte resource locator identifier).
    public static let size = 8

    /// The 8 identifier bytes.
    public let bytes: [UInt8]

    /// The identifier of a compressed public key.
    public init(compressedPublicKey: [UInt8]) {
        bytes = Array(SHA256.hash(data: compressedPublicKey).prefix(Self.size))
    }

    /// Wraps 8 bytes read from a locator; nil for any other length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.size else { return nil }
        self.bytes = bytes
    }

    /// Lowercase hex.
    public var description: String { Hex.encode(bytes) }
}
