import KithCanonical

/// What the responder needs to complete the hybrid X3DH, carried by prekey messages.
///
/// Wire: `initiator_ephemeral 32 | opk_present u8 (0x00/0x01) | opk_id u32 (only when present) |
/// pq_ciphertext 1088`.
public struct PrekeyPrelude: Sendable, Equatable {
    /// The initiator's ephemeral X25519 public key (also identifies the session: its "base key").
    public var initiatorEphemeral: [UInt8]
    /// The id of the responder's one-time prekey used for DH4, if any.
    public var oneTimePrekeyID: UInt32?
    /// The ML-KEM-768 ciphertext encapsulated to the responder's pq_key.
    public var pqCiphertext: [UInt8]

    /// Creates a prelude.
    public init(initiatorEphemeral: [UInt8], oneTimePrekeyID: UInt32?, pqCiphertext: [UInt8]) {
        self.initiatorEphemeral = initiatorEphemeral
        self.oneTimePrekeyID = oneTimePrekeyID
        self.pqCiphertext = pqCiphertext
    }

    /// Appends the wire form.
    public func encode(into writer: inout ByteWriter) {
        writer.write(bytes: initiatorEphemeral)
        if let oneTimePrekeyID {
            writer.write(UInt8(0x01))
            writer.write(oneTimePrekeyID)
        } else {
            writer.write(UInt8(0x00))
        }
        writer.write(bytes: pqCiphertext)
    }

    /// Reads a prelude from `reader`.
    public static func decode(from reader: inout ByteReader) throws(RatchetError) -> PrekeyPrelude {
        do {
            let ephemeral = try reader.readBytes(RatchetConstants.x25519KeySize)
            let flag = try reader.readUInt8()
            let id: UInt32?
            switch flag {
            case 0x00: id = nil
            case 0x01: id = try reader.readUInt32()
            default: throw RatchetError.malformed("one-time prekey flag 0x\(String(flag, radix: 16))")
            }
            let ciphertext = try reader.readBytes(RatchetConstants.mlkemCiphertextSize)
            return PrekeyPrelude(initiatorEphemeral: ephemeral, oneTimePrekeyID: id, pqCiphertext: ciphertext)
        } catch let error as RatchetError {
            throw error
        } catch {
            throw .malformed("prekey prelude: \(error)")
        }
    }
}
