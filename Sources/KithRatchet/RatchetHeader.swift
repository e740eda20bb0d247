import KithCanonical

/// The Double Ratchet header carried in clear (but authenticated) before every ciphertext.
///
/// Wire: `dh_public_key 32 | message_number u32 | prev_chain_length u32 | pq_present u8 |
/// pq_ciphertext 1088 (only when pq_present = 0x01)`. The flag precedes the ciphertext so the
/// decoder knows the length before reading it (the feed spec lists the flag last).
public struct RatchetHeader: Sendable, Equatable {
    /// The sender's current ratchet public key.
    public var dhPublicKey: [UInt8]
    /// The message's index in the sender's current chain.
    public var messageNumber: UInt32
    /// The length of the sender's previous sending chain.
    public var previousChainLength: UInt32
    /// The ML-KEM-768 ciphertext that starts this chain, when carried.
    public var pqCiphertext: [UInt8]?

    /// Creates a header.
    public init(dhPublicKey: [UInt8], messageNumber: UInt32, previousChainLength: UInt32, pqCiphertext: [UInt8]?) {
        self.dhPublicKey = dhPublicKey
        self.messageNumber = messageNumber
        self.previousChainLength = previousChainLength
        self.pqCiphertext = pqCiphertext
    }

    /// Appends the wire form.
    public func encode(into writer: inout ByteWriter) {
        writer.write(bytes: dhPublicKey)
        writer.write(messageNumber)
        writer.write(previousChainLength)
        if let pqCiphertext {
            writer.write(UInt8(0x01))
            writer.write(bytes: pqCiphertext)
        } else {
            writer.write(UInt8(0x00))
        }
    }

    /// The wire form.
    public var encoded: [UInt8] {
        var writer = ByteWriter(capacity: 41 + (pqCiphertext == nil ? 0 : RatchetConstants.mlkemCiphertextSize))
        encode(into: &writer)
        return writer.bytes
    }

    /// Reads a header from `reader`.
    public static func decode(from reader: inout ByteReader) throws(RatchetError) -> RatchetHeader {
        do {
            let dh = try reader.readBytes(RatchetConstants.x25519KeySize)
            let number = try reader.readUInt32()
            let previous = try reader.readUInt32()
            let flag = try reader.readUInt8()
            switch flag {
            case 0x00:
                return RatchetHeader(dhPublicKey: dh, messageNumber: number, previousChainLength: previous, pqCiphertext: nil)
            case 0x01:
                let ciphertext = try reader.readBytes(RatchetConstants.mlkemCiphertextSize)
                return RatchetHeader(dhPublicKey: dh, messageNumber: number, previousChainLength: previous, pqCiphertext: ciphertext)
            default:
                throw RatchetError.invalidPQFlag(flag)
            }
        } catch let error as RatchetError {
            throw error
        } catch {
            throw .malformed("ratchet header: \(error)")
        }
    }
}
