import KithCanonical

/// One guardian's share of an owner's recovery secret: a point (index, value) of the byte-wise Shamir polynomials
/// of one guardian set, with what the combiner needs to check that shares belong together.
///
/// Binary form (version 1, all integers big-endian), read only through a bounded `ByteReader`:
///
///     magic "KRS" | version u8 = 0x01 | set id 16 | generation u32 | threshold u8 | share count u8 | index u8
///     | owner feed id 32 | value length u16 | value (secret length + 32 bytes)
///
/// The value is the share of `secret | digest`, where digest = SHA-256 over the set's public fields and the secret
/// (`RecoveryDigest`); the digest is split with the secret, so fewer than `threshold` shares reveal neither.
/// Text form: the base64url of the binary form.
public struct RecoveryShare: Sendable, Equatable {
    /// The format version written and read.
    public static let version: UInt8 = 0x01
    static let magic: [UInt8] = Array("KRS".utf8)
    /// The bytes before the value length: magic, version, set id, generation, threshold, count, index, owner.
    static let headerBytes = 3 + 1 + RecoveryLimits.setIDBytes + 4 + 3 + RecoveryLimits.feedIDBytes

    /// The random id of the guardian set this share belongs to.
    public let setID: [UInt8]
    /// The owner's set counter: a new set (guardians replaced, keys rotated) has a higher generation, and a guardian
    /// keeps only the newest generation of each owner.
    public let generation: UInt32
    /// How many shares rebuild the secret.
    public let threshold: Int
    /// How many shares the set has (one per guardian).
    public let shareCount: Int
    /// This share's x-coordinate, 1…`shareCount`.
    public let index: Int
    /// The raw 32 bytes of the owner's feed id.
    public let ownerFeedID: [UInt8]
    /// The share bytes: one polynomial value per byte of `secret | digest`.
    public let value: [UInt8]

    /// Bundles validated fields (the split and the decoder make shares; nothing else needs to).
    init(setID: [UInt8], generation: UInt32, threshold: Int, shareCount: Int, index: Int, ownerFeedID: [UInt8],
         value: [UInt8]) {
        self.setID = setID
        self.generation = generation
        self.threshold = threshold
        self.shareCount = shareCount
        self.index = index
        self.ownerFeedID = ownerFeedID
        self.value = value
    }

    /// The number of secret bytes this share carries a share of.
    public var secretByteCount: Int { value.count - RecoveryLimits.digestBytes }

    /// The binary form.
    public var encoded: [UInt8] {
        var writer = ByteWriter(capacity: Self.headerBytes + 2 + value.count)
        writer.write(bytes: Self.magic)
        writer.write(Self.version)
        writer.write(bytes: setID)
        writer.write(generation)
        writer.write(UInt8(threshold))
        writer.write(UInt8(shareCount))
        writer.write(UInt8(index))
        writer.write(bytes: ownerFeedID)
        writer.write(UInt16(value.count))
        writer.write(bytes: value)
        return writer.bytes
    }

    /// The text form (base64url of `encoded`).
    public var text: String { Base64URL.encode(encoded) }

    /// Reads the binary form, checking every bound.
    ///
    /// - Throws: `RecoveryError.malformed` for a wrong magic or version, a threshold, count or index out of range,
    ///   a value of the wrong size, truncation or trailing bytes.
    public init(encoded bytes: [UInt8]) throws(RecoveryError) {
        self = try RecoveryDecoding.read(bytes, kind: "share", maxBytes: RecoveryLimits.maxEncodedShareBytes,
                                         magic: Self.magic, version: Self.version) { reader in
            let setID = try reader.readBytes(RecoveryLimits.setIDBytes)
            let generation = try reader.readUInt32()
            let threshold = Int(try reader.readUInt8())
            let shareCount = Int(try reader.readUInt8())
            let index = Int(try reader.readUInt8())
            let ownerFeedID = try reader.readBytes(RecoveryLimits.feedIDBytes)
            let length = Int(try reader.readUInt16())
            guard (RecoveryLimits.minThreshold...RecoveryLimits.maxShares).contains(threshold),
                  (threshold...RecoveryLimits.maxShares).contains(shareCount),
                  (1...shareCount).contains(index) else {
                throw RecoveryError.malformed(kind: "share", reason: "threshold \(threshold), count \(shareCount), index \(index)")
            }
            guard length > RecoveryLimits.digestBytes,
                  length <= RecoveryLimits.maxSecretBytes + RecoveryLimits.digestBytes else {
                throw RecoveryError.malformed(kind: "share", reason: "value of \(length) bytes")
            }
            return RecoveryShare(setID: setID, generation: generation, threshold: threshold, shareCount: shareCount,
                                 index: index, ownerFeedID: ownerFeedID, value: try reader.readBytes(length))
        }
    }

    /// Reads the text form.
    public init(text: String) throws(RecoveryError) {
        let bytes = try RecoveryText.decode(text, kind: "share", maxBytes: RecoveryLimits.maxEncodedShareBytes)
        try self.init(encoded: bytes)
    }
}
