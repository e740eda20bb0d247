import Crypto
import KithSync

/// This device's view of beacons for one epoch: the tags it sends (one per contact, padded with
/// random filler) and the tags it recognises (each contact's tags for the previous, current and
/// next epoch, to tolerate clock skew at epoch boundaries).
public struct NearbyBeaconCodebook: Sendable {
    /// The epoch the codebook was built for.
    public let epoch: UInt64
    private let ownTags: [[UInt8]]
    private let recognised: [[UInt8]: Int]
    private let contacts: [NearbyContact]

    /// Builds the codebook of `epoch` for a device with static key `localStaticKey`.
    public init(localStaticKey: [UInt8], contacts: [NearbyContact], epoch: UInt64) {
        self.epoch = epoch
        self.contacts = contacts
        ownTags = contacts.map { NearbyBeacon.tag(beaconKey: $0.beaconKey, epoch: epoch, senderStaticKey: localStaticKey) }
        var recognised: [[UInt8]: Int] = [:]
        for (index, contact) in contacts.enumerated() {
            for candidate in [epoch &- 1, epoch, epoch &+ 1] {
                recognised[NearbyBeacon.tag(beaconKey: contact.beaconKey, epoch: candidate, senderStaticKey: contact.staticKey)] = index
            }
        }
        self.recognised = recognised
    }

    /// The beacons to send this round: every contact's tag, in datagrams of at most
    /// ``SyncLimits/maximumBeaconTags`` tags, each padded with random tags to a multiple of 8 and
    /// sorted. A device without contacts sends one beacon of 8 random tags (it still looks the same).
    public func beacons(port: UInt16) -> [NearbyBeacon] {
        let groups = stride(from: 0, to: max(ownTags.count, 1), by: NearbyLimits.maximumBeaconTags).map {
            Array(ownTags[min($0, ownTags.count)..<min($0 + NearbyLimits.maximumBeaconTags, ownTags.count)])
        }
        return groups.map { group in
            var tags = group
            let padded = max(NearbyLimits.beaconTagPadding, (tags.count + NearbyLimits.beaconTagPadding - 1) / NearbyLimits.beaconTagPadding * NearbyLimits.beaconTagPadding)
            while tags.count < padded {
                tags.append(SymmetricKey(size: .bits128).withUnsafeBytes { Array($0.prefix(NearbyLimits.beaconTagLength)) })
            }
            tags.sort { $0.lexicographicallyPrecedes($1) }
            return NearbyBeacon(port: port, tags: tags)
        }
    }

    /// The contacts whose tag appears in a beacon (usually zero or one).
    public func recognise(_ beacon: NearbyBeacon) -> [NearbyContact] {
        var seen: Set<Int> = []
        return beacon.tags.compactMap { tag in
            guard let index = recognised[tag], seen.insert(index).inserted else { return nil }
            return contacts[index]
        }
    }
}
