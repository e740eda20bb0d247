import Crypto
import Foundation
import KithIdentity

/// Encryption for `audience = "contacts"` (spec 4.3, Kith v1 recipient map; docs/FEED-FORMAT.md section 11).
///
/// The content is encrypted once under a fresh 32-byte message key:
///
///     body = ChaCha20-Poly1305(message_key, nonce, plaintext, aad = map header)
///     nonce = SHA-256(uint64_be(sequence) || ASCII(feed_id))[0..<12]     (as for self, spec 4.4)
///
/// For each recipient key K (a pairwise contacts key, or the author's self slot key):
///
///     okm = HKDF-SHA256(ikm = K, salt = map salt (16 random bytes),
///                       info = "Kith_ContactsSlot_v1" || ASCII(feed_id) || uint32_be(sequence), L = 40)
///     slot_id = okm[0..<8];  wrapped_key = message_key XOR okm[8..<40]
///
/// A slot id is unlinkable without K, differs in every message (fresh salt), and lets a
/// recipient find its slot without trial decryption. The wrap carries no MAC of its own: a wrong
/// or altered slot yields a wrong message key and the body fails to authenticate.
public enum ContactsAudienceCipher {
    /// Encrypts content for the holders of `recipientKeys`.
    ///
    /// - Parameters:
    ///   - messageKey, salt: fixed values for test vectors only; fresh random values otherwise.
    public static func seal(
        _ plaintext: [UInt8],
        recipientKeys: [SymmetricKey],
        sequence: UInt32,
        feedID: FeedID,
        messageKey fixedKey: [UInt8]? = nil,
        salt fixedSalt: [UInt8]? = nil
    ) throws(ContactsCipherError) -> [UInt8] {
        guard !recipientKeys.isEmpty else { throw .malformedMap("no recipient slots") }
        guard recipientKeys.count <= ContactsLimits.maxRecipients else { throw .tooManyRecipients(recipientKeys.count) }
        let messageKey = fixedKey ?? randomBytes(32)
        let salt = fixedSalt ?? randomBytes(ContactsLimits.saltBytes)
        guard messageKey.count == 32, salt.count == ContactsLimits.saltBytes else { throw .malformedMap("bad fixed key or salt length") }
        let info = slotInfo(sequence: sequence, feedID: feedID)
        var slots: [ContactsRecipientMap.Slot] = []
        slots.reserveCapacity(recipientKeys.count)
        var seen = Set<[UInt8]>()
        for key in recipientKeys {
            let (id, pad) = slotMaterial(key: key, salt: salt, info: info)
            // Two identical keys would produce the same slot: keep one.
            guard seen.insert(id).inserted else { continue }
            var wrapped = [UInt8](repeating: 0, count: 32)
            for index in 0..<32 { wrapped[index] = messageKey[index] ^ pad[index] }
            slots.append(ContactsRecipientMap.Slot(id: id, wrappedKey: wrapped))
        }
        let skeleton = ContactsRecipientMap(salt: salt, slots: slots, body: [])
        let header = skeleton.header
        do {
            let nonce = try ChaChaPoly.Nonce(data: SelfAudienceCipher.nonce(sequence: sequence, feedID: feedID))
            let box = try ChaChaPoly.seal(plaintext, using: SymmetricKey(data: messageKey), nonce: nonce, authenticating: header)
            return header + Array(box.ciphertext) + Array(box.tag)
        } catch {
            throw .authenticationFailed
        }
    }

    /// Decrypts content with one of `keys` (the reader's pairwise keys with the author, newest
    /// first, or its self slot key).
    ///
    /// - Throws: ``ContactsCipherError/notARecipient`` when no key has a slot;
    ///   ``ContactsCipherError/authenticationFailed`` when a slot matched but the body did not open.
    public static func open(_ sealed: [UInt8], keys: [SymmetricKey], sequence: UInt32, feedID: FeedID) throws(ContactsCipherError) -> [UInt8] {
        let map = try ContactsRecipientMap.decode(sealed)
        let info = slotInfo(sequence: sequence, feedID: feedID)
        for key in keys {
            let (id, pad) = slotMaterial(key: key, salt: map.salt, info: info)
            guard let slot = map.slot(id: id) else { continue }
            var messageKey = [UInt8](repeating: 0, count: 32)
            for index in 0..<32 { messageKey[index] = slot.wrappedKey[index] ^ pad[index] }
            return try openBody(map, messageKey: messageKey, sequence: sequence, feedID: feedID)
        }
        throw .notARecipient
    }

    /// Opens the body with a known message key (used by tests and vector checks).
    public static func openBody(_ map: ContactsRecipientMap, messageKey: [UInt8], sequence: UInt32, feedID: FeedID) throws(ContactsCipherError) -> [UInt8] {
        do {
            let nonce = try ChaChaPoly.Nonce(data: SelfAudienceCipher.nonce(sequence: sequence, feedID: feedID))
            let box = try ChaChaPoly.SealedBox(nonce: nonce, ciphertext: map.body.dropLast(16), tag: map.body.suffix(16))
            return Array(try ChaChaPoly.open(box, using: SymmetricKey(data: messageKey), authenticating: map.header))
        } catch {
            throw .authenticationFailed
        }
    }

    /// The HKDF info of a slot: "Kith_ContactsSlot_v1" || ASCII(feed_id) || uint32_be(sequence).
    public static func slotInfo(sequence: UInt32, feedID: FeedID) -> [UInt8] {
        var info = ContactsLimits.slotInfoLabel
        info.append(contentsOf: feedID.string.utf8)
        for shift in stride(from: 24, through: 0, by: -8) { info.append(UInt8(truncatingIfNeeded: sequence >> UInt32(shift))) }
        return info
    }

    /// The slot id and pad of one recipient key in one message.
    public static func slotMaterial(key: SymmetricKey, salt: [UInt8], info: [UInt8]) -> (id: [UInt8], pad: [UInt8]) {
        let okm = HKDF<SHA256>.deriveKey(inputKeyMaterial: key, salt: salt, info: info, outputByteCount: 40)
        let bytes = okm.withUnsafeBytes { Array($0) }
        return (Array(bytes[0..<8]), Array(bytes[8..<40]))
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        SymmetricKey(size: SymmetricKeySize(bitCount: count * 8)).withUnsafeBytes { Array($0) }
    }
}
