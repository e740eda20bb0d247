import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithDemo
import KithFeed
import KithIdentity
import KithPushClient
import KithStore
import KithSync
import KithTerminal

/// `kith push register|status|refill`: push knocks, this identity's side (docs/PUSH-CLIENT.md).
struct PushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Register for push knocks and hand contacts tokens to wake this device.",
        discussion: """
            Contacts knock (`kith knock NAME`) with whitelist tokens you gave them inside your direct channel; the gateway \
            wakes your device through the push service, and `kith knocks listen` prints who knocked. Tokens are refilled \
            automatically by `kith push register`, `kith push refill` and every `kith sync connect`/`listen` once registered.
            """,
        subcommands: [Register.self, Status.self, Refill.self]
    )
}
