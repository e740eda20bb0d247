import ArgumentParser
import Foundation
import Synchronization
import Kith
import KithCanonical
import KithFeed
import KithIdentity
import KithStore
import KithTerminal

/// Parses a base64url Ed25519 identity key given on the command line.
func parseIdentityKey(_ text: String) throws(KithError) -> IdentityPublicKey {
    do throws(IdentityError) {
        return try PublicKeys.identityKey(fromBase64URL: text)
    } catch {
        throw .identity(error)
    }
}
