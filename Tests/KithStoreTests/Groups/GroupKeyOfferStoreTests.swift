import Crypto
import Foundation
import GRDB
import KithFeed
import Testing

@testable import KithStore

/// Automatic KeyPackage offers in the store: the switch persists and off withdraws only automatic KeyPackages; the
/// bound and the interval decide when an offer is due; counts per feed.
@Suite struct GroupKeyOfferStoreTests {
    static let peer = String(repeating: "P", count: 43)
    static let other = String(repeating: "Q", count: 43)

    static func store() throws -> FeedStore { try FeedStore(path: nil, storageKey: SymmetricKey(size: .bits256)) }

    @Test func anOfferIsDueOncePerIntervalWhileNoneWaits() throws {
        let store = try Self.store()
        let now: Int64 = 1_000_000
        #expect(try store.readGroupState { access in try access.automaticKeyOfferDue(to: Self.peer, now: now) })
        try store.withGroupState { access in
            try access.saveOwnKeyPackage(reference: "a1", recipient: Self.peer, keyPackage: [1], secrets: [2], automatic: true)
            try access.recordAutomaticKeyOffer(to: Self.peer, at: now)
        }
        // One waits: not due, whenever.
        #expect(try !store.readGroupState { access in try access.automaticKeyOfferDue(to: Self.peer, now: now + 10 * GroupStoreAccess.automaticKeyOfferInterval) })
        try store.withGroupState { access in try access.deleteOwnKeyPackage(reference: "a1") }
        // Used: due again only once the interval passed.
        #expect(try !store.readGroupState { access in try access.automaticKeyOfferDue(to: Self.peer, now: now + GroupStoreAccess.automaticKeyOfferInterval - 1) })
        #expect(try store.readGroupState { access in try access.automaticKeyOfferDue(to: Self.peer, now: now + GroupStoreAccess.automaticKeyOfferInterval) })
        // A shared KeyPackage does not count against the bound.
        try store.withGroupState { access in try access.saveOwnKeyPackage(reference: "s1", recipient: Self.other, keyPackage: [3], secrets: [4]) }
        #expect(try store.readGroupState { access in try access.automaticKeyOfferDue(to: Self.other, now: now) })
    }

    @Test func offWithdrawsOnlyAutomaticKeyPackagesAndPersists() throws {
        let store = try Self.store()
        try store.withGroupState { access in
            try access.saveOwnKeyPackage(reference: "a1", recipient: Self.peer, keyPackage: [1], secrets: [2], automatic: true)
            try access.saveOwnKeyPackage(reference: "s1", recipient: Self.peer, keyPackage: [3], secrets: [4])
            try access.savePeerKeyPackage(reference: "p1", peer: Self.peer, keyPackage: [5])
        }
        #expect(try store.readGroupState { access in try access.keyPackageCounts() }[Self.peer]
            == KeyPackageCounts(automaticOutstanding: 1, sharedOutstanding: 1, held: 1))
        #expect(try store.withGroupState { access in try access.setAutomaticKeyOffers(false) } == 1)
        #expect(try !store.readGroupState { access in try access.automaticKeyOffersEnabled() })
        #expect(try !store.readGroupState { access in try access.automaticKeyOfferDue(to: Self.peer, now: 1) })
        #expect(try store.readGroupState { access in try access.ownKeyPackage(reference: "a1") } == nil)
        #expect(try store.readGroupState { access in try access.keyPackageCounts() }[Self.peer]
            == KeyPackageCounts(automaticOutstanding: 0, sharedOutstanding: 1, held: 1))
        _ = try store.withGroupState { access in try access.setAutomaticKeyOffers(true) }
        #expect(try store.readGroupState { access in try access.automaticKeyOffersEnabled() })
    }
}
