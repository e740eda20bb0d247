import KithCanonical

/// The bytes of a direct message's `content_enc` (before base64url):
/// `type u8 | [prelude, when type = 0x02] | header | ciphertext || tag (16)`.
public struct DirectMessageWire: Sendable, Equatable {
    /// Message type byte of an ordinary ratchet message.
    public static let ratchetMessageType: UInt8 = 0x01
    /// Message type byte of a prekey message (starts or may start a session).
    public static let prekeyMessageType: UInt8 = 0x02

    /// The X3DH prelude of a prekey message; nil for an ordinary ratchet message.
    public var prelude: PrekeyPrelude?
    /// The ratchet header.
    public var header: RatchetHeader
    /// The ChaCha20-Poly1305 ciphertext followed by its 16-byte tag.
    public var ciphertext: [UInt8]

    /// Creates a wire value.
    public init(prelude: PrekeyPrelude?, header: RatchetHeader, ciphertext: [UInt8]) {
        self.prelude = prelude
        self.header = header
        self.ciphertext = ciphertext
    }

    /// Every byte before the ciphertext; this is the `header_bytes` of the associated data.
    public var headerBytes: [UInt8] {
        var writer = ByteWriter(capacity: 64)
        writer.write(prelude == nil ? Self.ratchetMessageType : Self.prekeyMessageType)
        prelude?.encode(into: &writer)
        header.encode(into: &writer)
        return writer.bytes
    }

    /// The full wire bytes.
    public var encoded: [UInt8] { headerBytes + ciphertext }

    /// Parses wire bytes; the ciphertext must hold at least the 16-byte tag.
    public static func decode(_ bytes: [UInt8]) throws(RatchetError) -> (wire: DirectMessageWire, headerBytes: [UInt8]) {
        var reader = ByteReader(bytes)
        let type: UInt8
        do { type = try reader.readUInt8() } catch { throw .malformed("empty direct message") }
        let prelude: PrekeyPrelude?
        switch type {
        case ratchetMessageType: prelude = nil
        case prekeyMessageType: prelude = try PrekeyPrelude.decode(from: &reader)
        default: throw .unknownMessageType(type)
        }
        let header = try RatchetHeader.decode(from: &reader)
        let headerBytes = Array(bytes[0..<reader.offset])
        let ciphertext = reader.readRemaining()
        guard ciphertext.count >= RatchetConstants.tagSize else {
            throw .malformed("ciphertext shorter than the \(RatchetConstants.tagSize)-byte tag")
        }
        return (DirectMessageWire(prelude: prelude, header: header, ciphertext: ciphertext), headerBytes)
    }

    /// True when `bytes` start with the prekey-message type byte.
    public static func isPrekeyMessage(_ bytes: [UInt8]) -> Bool { bytes.first == prekeyMessageType }
}
