import Kith
import KithIdentity

/// In-memory accounts for the facade-level tests (KithTests, KithNearbyTests): fixed seeds, a
/// fixed clock, and Alice and Bob who have exchanged cards. Public API only.
public enum MetAccounts {
    /// The fixed clock of every fixture account (seconds).
    public static let now: Int64 = 1_790_000_000

    /// An in-memory account whose seed is 32 copies of `byte`.
    public static func account(_ byte: UInt8) throws -> Account {
        try Account.inMemory(seed: try Seed(bytes: [UInt8](repeating: byte, count: 32)), clock: { now })
    }

    /// Alice (0xA1) and Bob (0xB0), contacts of each other.
    public static func met() async throws -> (Account, Account) {
        let alice = try account(0xA1)
        let bob = try account(0xB0)
        try await bob.contacts.add(cardText: try await alice.contacts.card(displayName: "Alice").text, name: "Alice")
        try await alice.contacts.add(cardText: try await bob.contacts.card(displayName: "Bob").text, name: "Bob")
        return (alice, bob)
    }
}
