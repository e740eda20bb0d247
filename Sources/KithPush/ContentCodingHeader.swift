import KithCanonical

/// The header of an RFC 8188 `aes128gcm` body: `salt (16) | rs (uint32) | idlen (uint8) | keyid (idlen)`.
///
/// In Web Push (RFC 8291 §4) the `keyid` is the application server's 65-byte ephemeral public key.
public struct ContentCodingHeader: Sendable, Equatable {
    /// The 16-byte salt.
    public let salt: [UInt8]
    /// The record size: the length of every record's ciphertext including its tag (the last may be shorter).
    public let recordSize: UInt32
    /// The key identifier (0…255 bytes).
    public let keyID: [UInt8]

    /// Creates a header, checking the salt length, the record size minimum and the keyid length.
    ///
    /// - Throws: ``WebPushError/invalidSalt(length:)``, ``WebPushError/recordSizeTooSmall(_:)`` or
    ///   ``WebPushError/invalidKeyIDLength(_:)`` for a keyid longer than 255 bytes.
    public init(salt: [UInt8], recordSize: UInt32, keyID: [UInt8]) throws(WebPushError) {
        guard salt.count == PushLimits.saltLength else { throw .invalidSalt(length: salt.count) }
        guard recordSize >= PushLimits.minRecordSize else { throw .recordSizeTooSmall(recordSize) }
        guard keyID.count <= Int(UInt8.max) else { throw .invalidKeyIDLength(keyID.count) }
        self.salt = salt
        self.recordSize = recordSize
        self.keyID = keyID
    }

    /// The header's length in bytes.
    public var encodedLength: Int { PushLimits.fixedHeaderLength + keyID.count }

    /// Appends the header to `writer`.
    public func write(to writer: inout ByteWriter) {
        writer.write(bytes: salt)
        writer.write(recordSize)
        writer.write(UInt8(truncatingIfNeeded: keyID.count))
        writer.write(bytes: keyID)
    }

    /// Reads a header from the front of `reader`, leaving the reader at the first ciphertext byte.
    ///
    /// - Throws: ``WebPushError/truncatedHeader(_:)`` when the input ends inside the header,
    ///   ``WebPushError/recordSizeTooSmall(_:)`` for `rs` below 18.
    public static func read(from reader: inout ByteReader) throws(WebPushError) -> ContentCodingHeader {
        let salt: [UInt8]
        let recordSize: UInt32
        let keyID: [UInt8]
        do throws(ByteReaderError) {
            salt = try reader.readBytes(PushLimits.saltLength)
            recordSize = try reader.readUInt32()
            keyID = try reader.readBytes(Int(try reader.readUInt8()))
        } catch {
            throw WebPushError(error)
        }
        return try ContentCodingHeader(salt: salt, recordSize: recordSize, keyID: keyID)
    }
}
