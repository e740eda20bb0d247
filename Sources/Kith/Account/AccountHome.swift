import Foundation

/// The files of one Kith home directory (`--home`, `$KITH_HOME`, or `~/.kith`).
///
///     identity.vault   the seed, encrypted under the passphrase (FileKeyVault)
///     public.json      feed id and public keys (nothing secret)
///     kith.sqlite      messages, contacts, sessions (no plaintext content, no private keys)
///     keys.sealed      after `kith rotate-keys`: seeds of the current keys and up to three retired generations,
///                      sealed under a key derived from the device seed
///     moved.json       after `kith move send`: this home handed its identity to another device (no keys remain)
///     personas.sealed  the index of the personas (docs/GROUPS.md, "Personas"), sealed under the device seed
///     personas/<id>/   one persona each: persona.sealed (its seed) and its own kith.sqlite, no public.json
public struct AccountHome: Sendable {
    /// The directory.
    public let directory: URL
    /// True for a persona's directory (`personas/<id>/`): no vault and no public.json, its seed is in persona.sealed.
    let isPersona: Bool

    /// Wraps a directory.
    public init(directory: URL) {
        self.directory = directory
        self.isPersona = false
    }

    /// A persona's directory.
    init(personaDirectory: URL) {
        self.directory = personaDirectory
        self.isPersona = true
    }

    /// Resolves the home: an explicit path, else `$KITH_HOME`, else `~/.kith`.
    public static func resolve(_ explicit: String?) -> AccountHome {
        if let explicit, !explicit.isEmpty { return AccountHome(directory: URL(fileURLWithPath: explicit)) }
        if let env = ProcessInfo.processInfo.environment["KITH_HOME"], !env.isEmpty {
            return AccountHome(directory: URL(fileURLWithPath: env))
        }
        return AccountHome(directory: FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".kith"))
    }

    /// The key vault file.
    public var vaultURL: URL { directory.appendingPathComponent("identity.vault") }
    /// The public keys in plaintext, so `kith id` works without the passphrase.
    public var publicKeysURL: URL { directory.appendingPathComponent("public.json") }
    /// The seeds of rotated keys (absent until the first rotation).
    public var rotatedKeysURL: URL { directory.appendingPathComponent("keys.sealed") }
    /// A rotation in progress: written before the key_rotation message, moved over
    /// ``rotatedKeysURL`` once the message is stored.
    public var pendingRotatedKeysURL: URL { directory.appendingPathComponent("keys-pending.sealed") }
    /// Present after `kith backup restore` until the account has learned its own feed's head from a contact or
    /// published a `device_migration` key rotation (docs/CONTINUITY.md); it holds the head the backup knew.
    public var restoreMarkerURL: URL { directory.appendingPathComponent("restored-head.json") }
    /// Present after `kith move send` handed the identity to a new device: the feed id, the time and the
    /// confirmation number of the move (nothing secret). Every later open of this home is refused with it.
    public var movedMarkerURL: URL { directory.appendingPathComponent("moved.json") }
    /// The SQLite database file.
    public var databaseURL: URL { directory.appendingPathComponent("kith.sqlite") }
    /// The sealed index of the personas.
    public var personaIndexURL: URL { directory.appendingPathComponent("personas.sealed") }
    /// The folder holding one directory per persona.
    public var personasDirectory: URL { directory.appendingPathComponent("personas", isDirectory: true) }
}
