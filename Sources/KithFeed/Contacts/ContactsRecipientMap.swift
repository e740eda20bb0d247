import KithCanonical

/// The decoded bytes of a `contacts` message's `content_enc` (v1 recipient map).
///
///     version u8 = 0x01 | salt 16 | slot_count u16 (1...1024)
///     | slot_count × (slot_id 8 | wrapped_key 32), strictly ascending by slot_id
///     | body = ChaCha20-Poly1305 ciphertext || tag 16
///
/// The spec's `{"recipients": {feed_id: ciphertext}}` map becomes a table of blinded slot ids
/// to wrapped copies of one message key; the content is encrypted once (docs/FEED-FORMAT.md section 11).
public struct ContactsRecipientMap: Sendable, Hashable {
    /// One recipient's entry.
    public struct Slot: Sendable, Hashable {
        /// The blinded slot id (8 bytes).
        public let id: [UInt8]
        /// The message key XOR the slot pad (32 bytes).
        public let wrappedKey: [UInt8]
    }

    /// The per-message random salt.
    public let salt: [UInt8]
    /// Slots, ascending by id.
    public let slots: [Slot]
    /// Ciphertext and tag of the content.
    public let body: [UInt8]

    /// The bytes authenticated as associated data: everything before the body.
    public var header: [UInt8] { Self.header(salt: salt, slots: slots) }

    /// The encoded bytes.
    public var encoded: [UInt8] { header + body }

    /// Creates a map; slots are sorted here.
    init(salt: [UInt8], slots: [Slot], body: [UInt8]) {
        self.salt = salt
        self.slots = slots.sorted { $0.id.lexicographicallyPrecedes($1.id) }
        self.body = body
    }

    static func header(salt: [UInt8], slots: [Slot]) -> [UInt8] {
        var writer = ByteWriter(capacity: 19 + slots.count * ContactsLimits.slotBytes)
        writer.write(ContactsLimits.mapVersion)
        writer.write(bytes: salt)
        writer.write(UInt16(slots.count))
        for slot in slots {
            writer.write(bytes: slot.id)
            writer.write(bytes: slot.wrappedKey)
        }
        return writer.bytes
    }

    /// Decodes a map, checking every structural rule (bounded reads, no trailing slack).
    public static func decode(_ bytes: [UInt8]) throws(ContactsCipherError) -> ContactsRecipientMap {
        var reader = ByteReader(bytes)
        do {
            let version = try reader.readUInt8()
            guard version == ContactsLimits.mapVersion else { throw ContactsCipherError.unknownMapVersion(version) }
            let salt = try reader.readBytes(ContactsLimits.saltBytes)
            let count = Int(try reader.readUInt16())
            guard count >= 1 else { throw ContactsCipherError.malformedMap("no recipient slots") }
            guard count <= ContactsLimits.maxRecipients else { throw ContactsCipherError.tooManyRecipients(count) }
            guard reader.remaining >= count * ContactsLimits.slotBytes + ContactsLimits.tagBytes else {
                throw ContactsCipherError.malformedMap("truncated: \(count) slots and a tag need \(count * ContactsLimits.slotBytes + ContactsLimits.tagBytes) bytes, \(reader.remaining) left")
            }
            var slots: [Slot] = []
            slots.reserveCapacity(count)
            for _ in 0..<count {
                let slot = Slot(id: try reader.readBytes(ContactsLimits.slotIDBytes), wrappedKey: try reader.readBytes(ContactsLimits.wrappedKeyBytes))
                if let last = slots.last, !last.id.lexicographicallyPrecedes(slot.id) {
                    throw ContactsCipherError.malformedMap("slot ids must be unique and ascending")
                }
                slots.append(slot)
            }
            let body = reader.readRemaining()
            return ContactsRecipientMap(salt: salt, slots: slots, body: body)
        } catch let error as ContactsCipherError {
            throw error
        } catch {
            throw .malformedMap("\(error)")
        }
    }

    /// The slot with this id (binary search), if any.
    public func slot(id: [UInt8]) -> Slot? {
        var low = 0
        var high = slots.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let candidate = slots[middle].id
            if candidate == id { return slots[middle] }
            if candidate.lexicographicallyPrecedes(id) { low = middle + 1 } else { high = middle - 1 }
        }
        return nil
    }
}
