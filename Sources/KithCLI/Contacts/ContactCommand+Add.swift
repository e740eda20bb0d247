import ArgumentParser
import Foundation
import KithTerminal
import Kith
import KithDemo
import KithCanonical
import KithFeed
import KithIdentity
import KithStore

extension ContactCommand {
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Verify a contact card (signature, feed id, age) and add its holder.")

        @OptionGroup var global: GlobalOptions

        @Option(help: "A local name for the contact (commands accept it instead of the feed id).")
        var name: String?

        @Option(help: "Refuse cards older than this many hours.")
        var maxAgeHours: Int64 = ContactCardLimits.defaultMaxAge / 3600

        @Argument(help: "The card's text form (full, or compact `KC1:…` as printed by `kith card --qr`), or - to read it from standard input.")
        var card: String

        @Option(help: "With a compact card: the full card it commits to (text, or - for standard input).")
        var full: String?

        func run() async throws {
            try await Output.run {
                guard card != "-" || full != "-" else { throw KithError.input(.invalid("only one of the card and --full can be read from standard input")) }
                let text = card == "-" ? Self.standardInput() : card
                guard maxAgeHours > 0, maxAgeHours <= 24 * 3650 else { throw KithError.input(.invalid("--max-age-hours must be 1...87600")) }
                let account = try await openAccount(global)
                let record: ContactRecord
                if CompactContactCard.looksCompact(text) {
                    let pending = try await account.contacts.addPending(compactText: text, name: name)
                    guard let full else {
                        if global.json {
                            var object = JSONObject()
                            object["pending"] = .bool(true)
                            object["feed_id"] = .string(pending.feedID.string)
                            object["name"] = .string(pending.compactCard.displayName)
                            Output.json(.object(object))
                        } else {
                            Output.line("Compact card of \(TerminalText.escaped(pending.compactCard.displayName)) (\(pending.feedID)) verified and kept as pending. "
                                + "The full card (it carries the keys messages are encrypted with) arrives by itself at your first sync with them "
                                + "(`kith pair`, `kith sync`), or add it from a file with `kith contact add FULL_CARD` (it must match the scanned card).")
                        }
                        return
                    }
                    let fullText = full == "-" ? Self.standardInput() : full
                    let fullCard: ContactCard
                    do throws(ContactCardError) { fullCard = try ContactCard(text: fullText) } catch { throw KithError.contacts(.card(error)) }
                    do throws(CompactContactCardError) { _ = try pending.compactCard.complete(with: fullCard) } catch {
                        throw KithError.contacts(.compactCard(error))
                    }
                    record = try await account.contacts.add(cardText: fullText, name: name, maxAge: maxAgeHours * 3600)
                } else {
                    guard full == nil else { throw KithError.input(.invalid("--full goes with a compact card (KC1:…); this is already a full card")) }
                    record = try await account.contacts.add(cardText: text, name: name, maxAge: maxAgeHours * 3600)
                }
                if global.json {
                    Output.json(ContactRendering.json(record))
                } else {
                    Output.line("Added \(TerminalText.escaped(record.shownName)) (\(record.feedID)). Their card's signature and feed id verified." + (record.keyIsVerified ? "" : " UNVERIFIED: their card names a key rotation not held here; nothing is encrypted for them until their feed proves it."))
                }
            }
        }

        static func standardInput() -> String {
            String(decoding: FileHandle.standardInput.readDataToEndOfFile().prefix(64 * 1024), as: UTF8.self)
        }
    }
}
