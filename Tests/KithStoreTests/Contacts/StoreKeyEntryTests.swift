import Crypto
import Testing
@testable import KithStore

/// Keys are checked where they enter the store, so the store can trust them when it reads them
/// back (docs/FEED-FORMAT.md section 2, "Ed25519 verification rule").
@Suite struct StoreKeyEntryTests {
    @Test func followingASmallOrderKeyIsRefusedAndStoresNothing() throws {
        let store = try StoreFixtures.store()
        let identityPoint = try Curve25519.Signing.PublicKey(rawRepresentation: [UInt8(1)] + [UInt8](repeating: 0, count: 31))
        #expect(throws: StoreError.self) { try store.follow(identityKey: identityPoint) }
        #expect(try store.followedFeeds().count == 1)
    }
}
