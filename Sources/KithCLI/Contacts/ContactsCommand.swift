import ArgumentParser
import Foundation
import KithTerminal
import Kith
import KithDemo
import KithCanonical
import KithFeed
import KithIdentity
import KithStore

/// `kith contacts`: lists contacts, introductions and flagged key rotations.
struct ContactsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "contacts", abstract: "List your contacts and the people contacts introduced.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await Output.run {
            let account = try await openAccount(global)
            let contacts = try await account.contacts.all()
            let introductions = try await account.contacts.introductions()
            let rotations = try await account.rotation.records()
            let pending = try await account.contacts.pending()
            if global.json {
                var object = JSONObject()
                object["contacts"] = .array(contacts.map(ContactRendering.json))
                object["pending"] = .array(pending.map { record in
                    var entry = JSONObject()
                    entry["feed_id"] = .string(record.feedID.string)
                    entry["name"] = .string(record.localName ?? record.compactCard.displayName)
                    entry["scanned_at"] = .integer(record.scannedAt)
                    return .object(entry)
                })
                object["introduced"] = .array(introductions.map { intro in
                    var entry = JSONObject()
                    entry["feed_id"] = .string(intro.introducedFeedID.string)
                    entry["introduced_by"] = .string(intro.introducerFeedID.string)
                    entry["note"] = intro.note.map { .string($0) } ?? .null
                    return .object(entry)
                })
                object["key_rotations"] = .array(rotations.map { rotation in
                    var entry = JSONObject()
                    entry["feed_id"] = .string(rotation.feedID.string)
                    entry["sequence"] = .integer(Int64(rotation.sequence))
                    entry["verified"] = .bool(rotation.verified)
                    return .object(entry)
                })
                Output.json(.object(object))
                return
            }
            if contacts.isEmpty && pending.isEmpty { Output.line("No contacts yet. Meet someone: `kith card --qr`, then `kith contact add CARD`.") }
            for contact in contacts {
                let profile = contact.displayName.map { " \"\(TerminalText.escaped($0))\"" } ?? ""
                let unverified = contact.keyIsVerified ? "" : "  UNVERIFIED key (rotation not held yet)"
                Output.line("\(TerminalText.escaped(contact.shownName))\(profile)  \(contact.feedID)  last seen #\(contact.lastSeenSequence)\(unverified)")
            }
            for record in pending {
                let shown = TerminalText.escaped(record.localName ?? record.compactCard.displayName)
                Output.line("pending (compact card scanned, full card still needed): \(shown)  \(record.feedID)")
            }
            for intro in introductions {
                let note = intro.note.map { ": \(TerminalText.escaped($0))" } ?? ""
                Output.line("introduced, not met: \(intro.introducedFeedID) by \(TerminalText.escaped(await account.contacts.displayName(of: intro.introducerFeedID)))\(note)")
            }
            if try await account.rotation.isDue() {
                Output.line("NOTE: your keys are 30 days old or more; rotate them with `kith rotate-keys`.")
            }
            for rotation in rotations where !rotation.verified {
                Output.line("WARNING: \(TerminalText.escaped(await account.contacts.displayName(of: rotation.feedID))) announced new keys at #\(rotation.sequence) without a valid signature by the old key; not trusted. Exchange cards in person again.")
            }
        }
    }
}
