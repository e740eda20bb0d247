import ArgumentParser
import Foundation
import KithTerminal
import Kith
import KithDemo
import KithCanonical
import KithFeed
import KithIdentity
import KithStore

/// `kith profile set`: publishes a profile update.
struct ProfileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "profile", abstract: "Manage your profile.", subcommands: [Set.self])
}
