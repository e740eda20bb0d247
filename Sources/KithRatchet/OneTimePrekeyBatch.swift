import KithCanonical

/// One public one-time prekey: a 32-bit id and an X25519 public key.
public struct OneTimePrekeyPublic: Sendable, Equatable, Hashable {
    /// The id the initiator quotes in its prekey message.
    public let id: UInt32
    /// The X25519 public key (32 bytes).
    public let publicKey: [UInt8]

    /// Creates an entry.
    public init(id: UInt32, publicKey: [UInt8]) {
        self.id = id
        self.publicKey = publicKey
    }
}

/// A batch of a contact's public one-time prekeys, as embedded in contact cards or sent over a session.
///
/// Wire: `version u8 (0x01) | count u16 (1...8192) | count x (id u32 | public_key 32)`, ids strictly
/// increasing. No signature: batches travel only over authenticated channels (in person, or inside
/// a ratchet session).
public struct OneTimePrekeyBatch: Sendable, Equatable {
    /// The format version byte.
    public static let formatVersion: UInt8 = 0x01

    /// The entries, ids strictly increasing.
    public private(set) var entries: [OneTimePrekeyPublic]

    /// Creates a batch; entries are sorted by id and must have distinct ids.
    public init(entries: [OneTimePrekeyPublic]) throws(RatchetError) {
        guard entries.count <= RatchetConstants.maxOneTimePrekeys else {
            throw .prekeyPoolFull(limit: RatchetConstants.maxOneTimePrekeys)
        }
        let sorted = entries.sorted { $0.id < $1.id }
        for index in sorted.indices.dropFirst() where sorted[index].id == sorted[index - 1].id {
            throw .malformed("duplicate one-time prekey id \(sorted[index].id)")
        }
        for entry in sorted { _ = try X25519Agreement.publicKey(entry.publicKey) }
        self.entries = sorted
    }

    /// Removes and returns the entry with the lowest id (the initiator uses each key once).
    public mutating func takeFirst() -> OneTimePrekeyPublic? {
        entries.isEmpty ? nil : entries.removeFirst()
    }

    /// The wire form.
    public var encoded: [UInt8] {
        var writer = ByteWriter(capacity: 3 + entries.count * 36)
        writer.write(Self.formatVersion)
        writer.write(UInt16(entries.count))
        for entry in entries {
            writer.write(entry.id)
            writer.write(bytes: entry.publicKey)
        }
        return writer.bytes
    }

    /// Decodes a batch, bounded by ``RatchetConstants/maxOneTimePrekeys``.
    ///
    /// - Throws: ``RatchetError/malformed(_:)`` for a wrong version, count 0 or above the bound,
    ///   truncation, trailing bytes or non-increasing ids; ``RatchetError/lowOrderPoint`` for a bad key.
    public static func decode(_ bytes: [UInt8]) throws(RatchetError) -> OneTimePrekeyBatch {
        var reader = ByteReader(bytes)
        var entries: [OneTimePrekeyPublic] = []
        do {
            let version = try reader.readUInt8()
            guard version == formatVersion else { throw RatchetError.malformed("prekey batch version \(version)") }
            let count = Int(try reader.readUInt16())
            guard count >= 1, count <= RatchetConstants.maxOneTimePrekeys else {
                throw RatchetError.malformed("prekey batch count \(count) outside 1...\(RatchetConstants.maxOneTimePrekeys)")
            }
            guard reader.remaining == count * 36 else {
                throw RatchetError.malformed("prekey batch of \(count) keys needs \(count * 36) bytes, has \(reader.remaining)")
            }
            entries.reserveCapacity(count)
            for _ in 0..<count {
                let id = try reader.readUInt32()
                let key = try reader.readBytes(32)
                if let last = entries.last, last.id >= id {
                    throw RatchetError.malformed("prekey ids must be strictly increasing (\(id) after \(last.id))")
                }
                entries.append(OneTimePrekeyPublic(id: id, publicKey: key))
            }
            try reader.expectEnd()
        } catch let error as RatchetError {
            throw error
        } catch {
            throw .malformed("prekey batch: \(error)")
        }
        return try OneTimePrekeyBatch(entries: entries)
    }
}
