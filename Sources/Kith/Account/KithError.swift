import KithContinuity
import KithFeed
import KithGroups
import KithIdentity
import KithInvites
import KithRatchet
import KithStore
import KithSync

/// Errors surfaced by the facade, one case per domain, each carrying the underlying typed error
/// so an app can switch on what went wrong.
///
/// ```swift
/// do {
///     let account = try await Account.open(home: home, passphrase: ask)
/// } catch .vault(.wrongPassphrase) {
///     showWrongPassphrase()
/// } catch .vault(.vaultMissing) {
///     offerToCreateAnIdentity()
/// } catch {
///     show(error.description)
/// }
/// ```
public enum KithError: Error, Sendable, CustomStringConvertible {
    /// A feed rule was broken (an envelope or content that does not verify or parse).
    case feed(FeedError)
    /// Key material: a public key, feed id or seed that is not valid, or signing failed.
    case identity(IdentityError)
    /// The key vault or the sealed rotated keys: missing, already there, wrong or unavailable
    /// passphrase, damaged.
    case vault(IdentityError)
    /// The SQLite store failed, or refused a change (a contact key conflicting with the chain).
    case store(StoreError)
    /// A direct message could not be sealed, or a session or prekey is invalid.
    case ratchet(RatchetError)
    /// A sync transport, secure link or sync source failed.
    case sync(SyncError)
    /// A contact is unknown, unverified, or their card or contacts content is not acceptable.
    case contacts(ContactError)
    /// Bad input from the user or the app: a file, an argument, a value.
    case input(InputError)
    /// Groups: an MLS or group-rule failure, an unknown group, a missing KeyPackage.
    case group(GroupError)
    /// Invites: a link or code that does not read or verify, or a join refused by the invite rules (docs/INVITES.md).
    case invite(InviteError)
    /// A file of the home (other than the vault) could not be written.
    case fileSystem(path: String, reason: String)
    /// The inner circle: no pool with the contact (or not committed yet), an exhausted pool, a
    /// one-time message that does not open (docs/TDF.md).
    case circle(OneTimePoolError)
    /// Recovery through contacts: a share, request or release refused, or shares that do not rebuild the identity
    /// (docs/CONTINUITY.md).
    case recovery(RecoveryError)
    /// A capability that this build does not have yet.
    case notYetSupported(String)
    /// Personas (per-conversation identities, docs/GROUPS.md "Personas"): unknown, damaged, too many.
    case persona(PersonaError)
    /// A backup could not be made, verified or restored, or a restored account must sync first.
    case continuity(ContinuityError)

    public var description: String {
        switch self {
        case .feed(let error): error.description
        case .identity(let error): error.description
        case .vault(let error): error.description
        case .store(let error): error.description
        case .ratchet(let error): "direct message: \(error.description)"
        case .sync(let error): error.description
        case .contacts(let error): error.description
        case .input(let error): error.description
        case .group(let error): "group: \(error.description)"
        case .invite(let error): "invite: \(error.description)"
        case .fileSystem(let path, let reason): "cannot write \(path): \(reason)"
        case .circle(let error): "inner circle: \(error.description)"
        case .recovery(let error): "recovery: \(error.description)"
        case .notYetSupported(let message): message
        case .persona(let error): "persona: \(error.description)"
        case .continuity(let error): error.description
        }
    }

}

/// A sync failure: the transport, the Noise link, or this device's sync source.
public enum SyncError: Error, Sendable, CustomStringConvertible {
    /// Binding, dialing, reading or writing the transport failed.
    case transport(SyncTransportError)
    /// The secure link could not be established or broke.
    case link(SecureLinkError)
    /// This device's store failed while serving or ingesting.
    case source(SyncSourceError)

    public var description: String {
        switch self {
        case .transport(let error): error.description
        case .link(let error): error.description
        case .source(let error): error.description
        }
    }
}
