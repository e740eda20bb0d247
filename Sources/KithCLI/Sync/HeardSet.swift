import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithIdentity
import KithNearby
import KithStore
import KithSync
import KithTerminal
import Synchronization

/// Contacts already reported as found (each is printed once).
final class HeardSet: Sendable {
    private let seen = Mutex<Set<String>>([])

    func insert(_ key: String) -> Bool { seen.withLock { $0.insert(key).inserted } }
}
