import Crypto
import KithSync

/// A contact as nearby discovery sees it: their Noise static key and the pair's beacon key.
public struct NearbyContact: Sendable {
    /// The contact's 32-byte Noise static key (their X25519 `dh_key`).
    public var staticKey: [UInt8]
    /// The pair's beacon key (``NearbyBeacon/beaconKey(contactsKey:)``).
    public var beaconKey: SymmetricKey

    /// Creates a contact entry.
    public init(staticKey: [UInt8], beaconKey: SymmetricKey) {
        self.staticKey = staticKey
        self.beaconKey = beaconKey
    }
}
