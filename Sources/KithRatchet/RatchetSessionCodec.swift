import KithCanonical
import KithIdentity

/// The versioned, bounded binary form of a ``RatchetSession`` (stored encrypted in `dr_sessions`).
///
/// Version 1 layout (big-endian integers):
/// ```
/// version u8 = 0x01 | role u8 (1 initiator, 2 responder) | presence u8 (bit0 receiving ratchet key,
/// bit1 sending chain, bit2 receiving chain, bit3 sending pq ciphertext, bit4 pending prelude)
/// local_feed_id 43 | peer_feed_id 43 | root_key 32 | sending_ratchet_private 32
/// [receiving_ratchet_public 32] [sending_chain_key 32] [receiving_chain_key 32]
/// Ns u32 | Nr u32 | PN u32 | base_key 32 | peer_pq_key 1184
/// [sending_pq_ciphertext 1088] [prelude (PrekeyPrelude wire)]
/// pq_carry_policy u8 | skipped_key_lifetime u64
/// retired_count u8 (<= 5) | retired_count x receiving_ratchet_public 32
/// skipped_count u16 (<= 2000) | skipped_count x (ratchet_public 32 | number u32 | message_key 32 | stored_at u64)
/// ```
///
/// A receiving chain without a sending chain means the sending half of the last DH ratchet step
/// is owed (the next ``RatchetSession/encrypt(_:context:entropy:)`` derives it).
public enum RatchetSessionCodec {
    /// The current format version.
    public static let version: UInt8 = 0x01
    /// The largest possible encoding: decoders refuse anything longer before parsing.
    public static let maxEncodedSize = 3 + 86 + 64 + 96 + 12 + 32 + 1184 + 1088 + 1125 + 9 + 1 + 5 * 32 + 2 + 2000 * 76

    /// Serializes a session.
    public static func encode(_ session: RatchetSession) -> [UInt8] {
        var writer = ByteWriter(capacity: 2700 + session.skippedKeys.count * 76)
        writer.write(version)
        writer.write(session.role.rawValue)
        var presence: UInt8 = 0
        if session.receivingRatchetPublicKey != nil { presence |= 0x01 }
        if session.sendingChainKey != nil { presence |= 0x02 }
        if session.receivingChainKey != nil { presence |= 0x04 }
        if session.sendingPQCiphertext != nil { presence |= 0x08 }
        if session.pendingPrelude != nil { presence |= 0x10 }
        writer.write(presence)
        writer.write(bytes: session.localFeedID.utf8)
        writer.write(bytes: session.peerFeedID.utf8)
        writer.write(bytes: session.rootKey)
        writer.write(bytes: session.sendingRatchetPrivateKey)
        if let key = session.receivingRatchetPublicKey { writer.write(bytes: key) }
        if let key = session.sendingChainKey { writer.write(bytes: key) }
        if let key = session.receivingChainKey { writer.write(bytes: key) }
        writer.write(session.sendingMessageNumber)
        writer.write(session.receivingMessageNumber)
        writer.write(session.previousSendingChainLength)
        writer.write(bytes: session.baseKey)
        writer.write(bytes: session.peerPQKey)
        if let ciphertext = session.sendingPQCiphertext { writer.write(bytes: ciphertext) }
        session.pendingPrelude?.encode(into: &writer)
        writer.write(session.configuration.pqCarryPolicy.rawValue)
        writer.write(session.configuration.skippedKeyLifetime)
        writer.write(UInt8(session.retiredReceivingRatchetKeys.count))
        for key in session.retiredReceivingRatchetKeys { writer.write(bytes: key) }
        writer.write(UInt16(session.skippedKeys.count))
        for entry in session.skippedKeys.entries {
            writer.write(bytes: entry.ratchetPublicKey)
            writer.write(entry.messageNumber)
            writer.write(bytes: entry.messageKey)
            writer.write(entry.storedAt)
        }
        return writer.bytes
    }

    /// Parses a session, checking every bound.
    ///
    /// - Throws: ``RatchetError/unsupportedSessionVersion(_:)`` or ``RatchetError/malformed(_:)``.
    public static func decode(_ bytes: [UInt8]) throws(RatchetError) -> RatchetSession {
        guard bytes.count <= maxEncodedSize else { throw .malformed("session of \(bytes.count) bytes exceeds \(maxEncodedSize)") }
        var reader = ByteReader(bytes)
        do {
            let version = try reader.readUInt8()
            guard version == Self.version else { throw RatchetError.unsupportedSessionVersion(version) }
            guard let role = RatchetSession.Role(rawValue: try reader.readUInt8()) else {
                throw RatchetError.malformed("unknown session role")
            }
            let presence = try reader.readUInt8()
            guard presence & 0xE0 == 0 else { throw RatchetError.malformed("unknown presence bits") }
            let localFeedID = try readFeedID(&reader)
            let peerFeedID = try readFeedID(&reader)
            let rootKey = try reader.readBytes(32)
            let sendingPrivate = try reader.readBytes(32)
            let sendingPublic = Array(try X25519Agreement.privateKey(sendingPrivate).publicKey.rawRepresentation)
            let receivingPublic = presence & 0x01 != 0 ? try reader.readBytes(32) : nil
            let sendingChain = presence & 0x02 != 0 ? try reader.readBytes(32) : nil
            let receivingChain = presence & 0x04 != 0 ? try reader.readBytes(32) : nil
            let sendingNumber = try reader.readUInt32()
            let receivingNumber = try reader.readUInt32()
            let previousLength = try reader.readUInt32()
            let baseKey = try reader.readBytes(32)
            let peerPQKey = try reader.readBytes(RatchetConstants.mlkemPublicKeySize)
            let pqCiphertext = presence & 0x08 != 0 ? try reader.readBytes(RatchetConstants.mlkemCiphertextSize) : nil
            let prelude = presence & 0x10 != 0 ? try PrekeyPrelude.decode(from: &reader) : nil
            guard let policy = RatchetConfiguration.PQCarryPolicy(rawValue: try reader.readUInt8()) else {
                throw RatchetError.malformed("unknown pq carry policy")
            }
            let lifetime = try reader.readUInt64()
            let retiredCount = Int(try reader.readUInt8())
            guard retiredCount <= RatchetConstants.maxRetiredReceivingKeys else {
                throw RatchetError.malformed("\(retiredCount) retired ratchet keys exceed \(RatchetConstants.maxRetiredReceivingKeys)")
            }
            var retired: [[UInt8]] = []
            for _ in 0..<retiredCount { retired.append(try reader.readBytes(32)) }
            let skippedCount = Int(try reader.readUInt16())
            guard skippedCount <= RatchetConstants.maxStoredSkippedKeys else {
                throw RatchetError.malformed("\(skippedCount) skipped keys exceed \(RatchetConstants.maxStoredSkippedKeys)")
            }
            var entries: [SkippedMessageKeys.Entry] = []
            entries.reserveCapacity(skippedCount)
            for _ in 0..<skippedCount {
                entries.append(SkippedMessageKeys.Entry(
                    ratchetPublicKey: try reader.readBytes(32), messageNumber: try reader.readUInt32(),
                    messageKey: try reader.readBytes(32), storedAt: try reader.readUInt64()
                ))
            }
            try reader.expectEnd()
            return RatchetSession(
                localFeedID: localFeedID, peerFeedID: peerFeedID, role: role,
                configuration: RatchetConfiguration(pqCarryPolicy: policy, skippedKeyLifetime: lifetime),
                baseKey: baseKey, peerPQKey: peerPQKey, rootKey: rootKey,
                sendingRatchetPrivateKey: sendingPrivate, sendingRatchetPublicKey: sendingPublic,
                receivingRatchetPublicKey: receivingPublic, sendingChainKey: sendingChain,
                receivingChainKey: receivingChain, sendingMessageNumber: sendingNumber,
                receivingMessageNumber: receivingNumber, previousSendingChainLength: previousLength,
                sendingPQCiphertext: pqCiphertext, pendingPrelude: prelude, retiredReceivingRatchetKeys: retired,
                skippedKeys: SkippedMessageKeys(entries: entries)
            )
        } catch let error as RatchetError {
            throw error
        } catch {
            throw .malformed("session: \(error)")
        }
    }

    private static func readFeedID(_ reader: inout ByteReader) throws -> String {
        let feedID = String(decoding: try reader.readBytes(RatchetConstants.feedIDLength), as: UTF8.self)
        return try FeedID.parsed(feedID).string
    }
}

extension RatchetSession {
    /// The versioned binary form (see ``RatchetSessionCodec``).
    public var serialized: [UInt8] { RatchetSessionCodec.encode(self) }

    /// Restores a session from ``serialized``.
    public init(serialized bytes: [UInt8]) throws(RatchetError) {
        self = try RatchetSessionCodec.decode(bytes)
    }
}
