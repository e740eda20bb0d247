/// Bounds and constants of LAN discovery (docs/sync.md section 10c): the one limits file of
/// KithNearby.
public enum NearbyLimits {

    /// First bytes of every nearby beacon: ASCII "KNB".
    public static let beaconMagic: [UInt8] = Array("KNB".utf8)
    /// Beacon format version.
    public static let beaconVersion: UInt8 = 1
    /// Bytes of a beacon before its tags: magic (3), version (1), TCP port (2), tag count (1).
    public static let beaconHeaderLength = 7
    /// Bytes of one beacon tag (truncated HMAC-SHA256).
    public static let beaconTagLength = 8
    /// Tag counts are padded with random filler to a multiple of this (hides the contact count).
    public static let beaconTagPadding = 8
    /// Most tags in one beacon datagram (7 + 144 × 8 = 1159 bytes, below a 1280-byte path MTU).
    public static let maximumBeaconTags = 144
    /// Seconds per beacon epoch: tags change every epoch (10 minutes).
    public static let beaconEpochSeconds: UInt64 = 600
    /// HMAC message prefix of a beacon tag.
    public static let beaconTagLabel: [UInt8] = Array("kith-nearby/1".utf8)
    /// HKDF salt deriving a pair's beacon key from its contacts key.
    public static let beaconKeySalt: [UInt8] = Array("kith-nearby-beacon/1".utf8)
    /// Default IPv4 multicast group (organization-local scope, RFC 2365).
    public static let defaultNearbyGroup = "239.255.71.55"
    /// Default UDP port of beacons.
    public static let defaultNearbyPort = 7456
    /// Seconds between beacons.
    public static let beaconIntervalSeconds = 2.0
}
