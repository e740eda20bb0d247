import ArgumentParser
import Foundation
import KithTerminal
import Kith
import KithDemo
import KithCanonical
import KithFeed
import KithIdentity
import KithStore

/// `kith card`: prints this identity's contact card (text form, optionally as a QR code).
struct CardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "card",
        abstract: "Print your contact card to exchange in person (text form; --qr draws the compact card to scan).",
        discussion: """
            --qr draws the compact card (keys, name, a commitment to the full card, signature; QR version 10-12 at \
            level M) and prints the full card it commits to: send that one over a secure link or as a file, and \
            the other side completes the contact with `kith contact add COMPACT --full FULL`. --qr --full draws \
            the full card instead (about 150 modules wide).
            """
    )

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Draw the compact card as a QR code (level M) and print both forms.")
    var qr = false

    @Flag(help: "With --qr, draw the full card instead of the compact one.")
    var full = false

    @Option(help: "The name on the card (default: your latest profile name).")
    var name: String?

    func run() async throws {
        try await Output.run {
            let account = try await openAccount(global)
            let card = try await account.contacts.card(displayName: name)
            let compact = try await account.contacts.compactCard(for: card)
            if global.json {
                var object = JSONObject()
                object["card"] = .string(card.text)
                object["compact_card"] = .string(compact.text)
                object["feed_id"] = .string(card.feedID.string)
                object["created_at"] = .integer(card.createdAt)
                object["bytes"] = .integer(Int64(card.encoded.count))
                object["compact_bytes"] = .integer(Int64(compact.encoded.count))
                Output.json(.object(object))
                return
            }
            guard qr else {
                Output.line(card.text)
                return
            }
            if full {
                Output.line(try QRCode.render(card.text, level: .medium))
                Output.line(card.text)
                return
            }
            Output.line(try QRCode.render(compact.text, level: .medium))
            Output.line(compact.text)
            Output.line("")
            Output.line("Full card (the compact card above commits to exactly this one; send it over a secure link or as a file):")
            Output.line(card.text)
        }
    }
}
