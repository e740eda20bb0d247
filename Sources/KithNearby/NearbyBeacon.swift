import Crypto
import KithCanonical
import KithSync

/// The datagram a device multicasts on the LAN so that its contacts, and only they, recognise it:
///
///     "KNB" | version u8 (1) | tcp_port u16 | tag_count u8 | tag[8] × tag_count
///
/// Each tag is ``tag(beaconKey:epoch:senderStaticKey:)`` for one contact, mixed with random
/// filler up to a multiple of 8 tags and sorted, so a stranger learns neither who is there nor
/// how many contacts they have, and tags change every 10-minute epoch (nothing stable to track).
public struct NearbyBeacon: Hashable, Sendable {
    /// Where the sender's `kith sync` TCP listener accepts connections.
    public var port: UInt16
    /// The 8-byte tags.
    public var tags: [[UInt8]]

    /// Creates a beacon.
    public init(port: UInt16, tags: [[UInt8]]) {
        self.port = port
        self.tags = tags
    }

    /// The datagram bytes.
    public var encoded: [UInt8] {
        var writer = ByteWriter(capacity: NearbyLimits.beaconHeaderLength + tags.count * NearbyLimits.beaconTagLength)
        writer.write(bytes: NearbyLimits.beaconMagic)
        writer.write(NearbyLimits.beaconVersion)
        writer.write(port)
        writer.write(UInt8(clamping: tags.count))
        for tag in tags { writer.write(bytes: tag) }
        return writer.bytes
    }

    /// Decodes a datagram.
    /// - Throws: ``NearbyError`` for anything that is not a well-formed version-1 beacon.
    public init(decoding bytes: [UInt8]) throws(NearbyError) {
        var reader = ByteReader(bytes)
        do {
            guard try reader.readBytes(NearbyLimits.beaconMagic.count) == NearbyLimits.beaconMagic else { throw NearbyError.notABeacon }
            let version = try reader.readUInt8()
            guard version == NearbyLimits.beaconVersion else { throw NearbyError.unsupportedVersion(version) }
            port = try reader.readUInt16()
            guard port != 0 else { throw NearbyError.invalidPort }
            let count = Int(try reader.readUInt8())
            guard (1...NearbyLimits.maximumBeaconTags).contains(count), reader.remaining == count * NearbyLimits.beaconTagLength else {
                throw NearbyError.invalidTagCount(count)
            }
            tags = try (0..<count).map { _ in try reader.readBytes(NearbyLimits.beaconTagLength) }
        } catch let error as NearbyError {
            throw error
        } catch {
            throw .notABeacon
        }
    }

    /// The epoch of a moment: `floor(unix_seconds / 600)`.
    public static func epoch(unixSeconds: Double) -> UInt64 {
        guard unixSeconds > 0 else { return 0 }
        return UInt64(unixSeconds) / NearbyLimits.beaconEpochSeconds
    }

    /// One tag: the first 8 bytes of
    /// `HMAC-SHA256(beacon_key, "kith-nearby/1" | epoch u64 | sender_static_key[32])`.
    /// The sender's key makes tags directional: the two sides of a pair never send the same tag.
    public static func tag(beaconKey: SymmetricKey, epoch: UInt64, senderStaticKey: [UInt8]) -> [UInt8] {
        var writer = ByteWriter(capacity: NearbyLimits.beaconTagLabel.count + 8 + senderStaticKey.count)
        writer.write(bytes: NearbyLimits.beaconTagLabel)
        writer.write(epoch)
        writer.write(bytes: senderStaticKey)
        let mac = HMAC<SHA256>.authenticationCode(for: writer.bytes, using: beaconKey)
        return Array(Array(mac).prefix(NearbyLimits.beaconTagLength))
    }

    /// A pair's beacon key: `HKDF-SHA256(ikm = contacts_key, salt = "kith-nearby-beacon/1", info = empty, L = 32)`.
    public static func beaconKey(contactsKey: SymmetricKey) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: contactsKey, salt: NearbyLimits.beaconKeySalt, info: [UInt8](), outputByteCount: 32)
    }
}
