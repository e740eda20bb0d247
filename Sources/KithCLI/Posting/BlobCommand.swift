import ArgumentParser
import Foundation
import KithTerminal
import Kith
import KithDemo
import KithCanonical
import KithFeed
import KithIdentity
import KithStore

/// `kith blob export|import` and `kith attachment`: move encrypted attachments between devices.
struct BlobCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "blob",
        abstract: "Move encrypted attachment blobs: export to a folder, import from files.",
        subcommands: [Export.self, Import.self, Get.self]
    )
}
