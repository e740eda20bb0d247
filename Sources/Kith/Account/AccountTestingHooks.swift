import KithGroups

/// What tests may change in an account's behaviour, in one value given to the account when it is made
/// (``Account/withTestingHooks(_:)``, reached with `@testable import Kith`). Production accounts carry
/// ``production``, which changes nothing.
struct AccountTestingHooks: Sendable {
    /// The largest ratchet tree this account's commits put in a Welcome (``GroupWireMessage/maxInBandTreeBytes``;
    /// tests lower it to send small trees apart).
    var groupTreeInBandLimit = GroupWireMessage.maxInBandTreeBytes
    /// Asked right after a group message's decrypted content is stored and before the group state is saved: true
    /// makes that pass fail there (its transaction must then keep neither).
    var failAfterGroupContent: @Sendable () -> Bool = { false }

    /// No change: what every account made by the public API carries.
    static let production = AccountTestingHooks()
}

extension Account {
    /// Another account over the same identity and store, behaving as `hooks` say (tests only).
    func withTestingHooks(_ hooks: AccountTestingHooks) throws(KithError) -> Account {
        try Account(
            identity: identity, deviceSeed: deviceSeed, keySeeds: keySeeds, store: store, home: home, clock: clock, testingHooks: hooks
        )
    }
}
