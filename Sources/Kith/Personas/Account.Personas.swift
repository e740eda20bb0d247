/// Personas: per-conversation identities of this account (docs/GROUPS.md, "Personas").
extension Account {
    /// Personas: per-conversation identities, each a full Kith identity of its own, sealed on this device under the
    /// main device seed, never published and never linked to the main identity on the wire. Create one for a
    /// conversation, open its ``Account`` to run that conversation exactly as on a main account, and delete it (with
    /// every key, row and file of it) when the conversation is left or explodes.
    public struct Personas: Sendable {
        /// The main account this capability acts for.
        let account: Account

        /// The most personas one device keeps.
        public static let maxPersonas = 256
    }

    /// Personas: per-conversation identities of this account (docs/GROUPS.md, "Personas").
    public var personas: Personas { Personas(account: self) }
}
