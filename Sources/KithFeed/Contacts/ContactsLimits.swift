/// Constants and bounds of the contacts audience and of attachment blobs (docs/FEED-FORMAT.md section 11).
public enum ContactsLimits {
    /// Format byte of the v1 recipient map.
    public static let mapVersion: UInt8 = 0x01
    /// Most recipient slots in one message, the author's own slot included (so 1,023 contacts).
    /// With 40-byte slots, 1,024 slots take 41 KB, which keeps a 280-character post under the
    /// 64 KiB envelope limit after base64url.
    public static let maxRecipients = 1_024
    /// Length of the per-message random salt.
    public static let saltBytes = 16
    /// Length of a blinded slot id.
    public static let slotIDBytes = 8
    /// Length of a wrapped message key.
    public static let wrappedKeyBytes = 32
    /// Length of one slot: id and wrapped key.
    public static let slotBytes = slotIDBytes + wrappedKeyBytes
    /// ChaCha20-Poly1305 tag length.
    public static let tagBytes = 16
    /// HKDF salt of the pairwise contacts key (spec 4.3).
    public static let contactsKeySalt: [UInt8] = Array("ProximityApp_ContactsKey_v1".utf8)
    /// HKDF info prefix of a recipient slot's id and pad.
    public static let slotInfoLabel: [UInt8] = Array("Kith_ContactsSlot_v1".utf8)
    /// HKDF info of the author's own slot key, derived from the journal key.
    public static let selfSlotKeyInfo: [UInt8] = Array("Kith_ContactsSelfKey_v1".utf8)
    /// Format byte of an encrypted attachment blob.
    public static let blobVersion: UInt8 = 0x01
    /// Largest attachment plaintext, in bytes (Kith bound: 16 MiB).
    public static let maxBlobPlaintextBytes = 16 * 1024 * 1024
    /// Associated data of attachment encryption.
    public static let blobAssociatedData: [UInt8] = Array("Kith_Blob_v1".utf8)
}
