import Crypto
import Synchronization

/// Contacts keys derived for this account, kept across imports: deriving one is an X25519 agreement, and every
/// import of a contact's `contacts` message needs it.
///
/// Keyed by both dh public keys and the contact's feed, so a rotation on either side simply misses. Memory only,
/// bounded: past ``capacity`` entries it starts over.
final class ContactsKeyCache: Sendable {
    /// Most entries kept.
    static let capacity = 4_096

    private let entries = Mutex<[String: SymmetricKey]>([:])

    /// The cached key for `name`, or the one `derive` makes (cached when it makes one).
    func key(_ name: String, derive: () -> SymmetricKey?) -> SymmetricKey? {
        if let cached = entries.withLock({ $0[name] }) { return cached }
        guard let derived = derive() else { return nil }
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[name] = derived
        }
        return derived
    }
}
