import KithIdentity
@testable import Kith

/// Two in-memory accounts that exchanged cards, as the nearby tests need them.
enum NearbyFixtures {
    static let now: Int64 = 1_790_000_000

    static func account(_ byte: UInt8) throws -> Account {
        try Account.inMemory(seed: try Seed(bytes: [UInt8](repeating: byte, count: 32)), clock: { now })
    }

    /// Alice and Bob, contacts of each other.
    static func met() async throws -> (Account, Account) {
        let alice = try account(0xA1)
        let bob = try account(0xB0)
        try await bob.addContact(cardText: try await alice.contactCard(displayName: "Alice").text, name: "Alice")
        try await alice.addContact(cardText: try await bob.contactCard(displayName: "Bob").text, name: "Bob")
        return (alice, bob)
    }
}
