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

/// `kith knocks listen [--json] [--sync-with ADDR | --once]`.
struct KnocksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "knocks", abstract: "Receive push knocks.", subcommands: [Listen.self])
}
