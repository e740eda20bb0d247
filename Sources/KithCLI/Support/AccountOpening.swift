import ArgumentParser
import Kith
import KithFeed
import KithIdentity

/// Opens the account of the home, asking for the passphrase when needed.
func openAccount(_ global: GlobalOptions) async throws -> Account {
    try await Account.open(home: global.accountHome, passphrase: { () throws(IdentityError) -> String in
        try PassphraseSource.obtain()
    })
}
