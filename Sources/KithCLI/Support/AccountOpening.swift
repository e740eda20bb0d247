import ArgumentParser
import Kith
import KithFeed
import KithGroups
import KithIdentity

/// Opens the account a command acts as: the home's main account, or, with `--persona-id`, that persona's account
/// (docs/GROUPS.md, "Personas"), asking for the passphrase when needed.
func openAccount(_ global: GlobalOptions) async throws -> Account {
    try await selectAccount(global).account
}

/// Opens the home's main account (never a persona).
func openMainAccount(_ global: GlobalOptions) async throws -> Account {
    try await Account.open(home: global.accountHome, passphrase: { () throws(IdentityError) -> String in
        try PassphraseSource.obtain()
    })
}

/// The account a command acts as, with the main account and, for a persona, its local id.
struct SelectedAccount {
    /// The account the command runs on (a persona's, or the main one).
    let account: Account
    /// The home's main account.
    let main: Account
    /// The persona's local id, when `account` is a persona.
    let personaID: String?
}

/// Opens the main account and, with `--persona-id`, the persona it names (its local id or its feed id).
func selectAccount(_ global: GlobalOptions) async throws -> SelectedAccount {
    let main = try await openMainAccount(global)
    guard let text = global.personaID else { return SelectedAccount(account: main, main: main, personaID: nil) }
    let personas = try await main.personas.all()
    guard let persona = personas.first(where: { $0.id == text || $0.feedID.string == text }) else {
        throw KithError.persona(.unknown(id: text))
    }
    return SelectedAccount(account: try await main.personas.open(persona.id), main: main, personaID: persona.id)
}

/// Opens the account holding a group: the one `--persona-id` names; else the main account when the group resolves
/// there; else the persona holding it (matched by group id, an id prefix of 4+ characters, or its name).
func selectAccount(_ global: GlobalOptions, holdingGroup text: String) async throws -> SelectedAccount {
    let selected = try await selectAccount(global)
    guard global.personaID == nil else { return selected }
    do {
        _ = try await selected.main.groups.resolve(text)
        return selected
    } catch {
        let matches = try await selected.main.personas.all().filter { persona in
            guard let group = persona.groupID else { return false }
            return group.string == text || (text.count >= 4 && group.string.hasPrefix(text)) || persona.conversation == text
        }
        guard let persona = matches.first else { throw error }
        guard matches.count == 1 else {
            throw KithError.input(.invalid("\(matches.count) persona conversations match \(text): name one with --persona-id (see `kith personas`)"))
        }
        return SelectedAccount(account: try await selected.main.personas.open(persona.id), main: selected.main, personaID: persona.id)
    }
}

/// Opens the account that created an invite: the main account, or the persona whose feed id is the invite's creator
/// (unless `--persona-id` names one).
func selectAccount(_ global: GlobalOptions, creatorOf invite: String) async throws -> SelectedAccount {
    let selected = try await selectAccount(global)
    guard global.personaID == nil,
          let creator = try? await selected.main.invites.inspect(invite).invite.payload.creatorInboxID.feedID, creator != selected.main.feedID,
          let persona = try await selected.main.personas.all().first(where: { $0.feedID == creator }) else {
        return selected
    }
    return SelectedAccount(account: try await selected.main.personas.open(persona.id), main: selected.main, personaID: persona.id)
}
