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
struct Card: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
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

/// `kith contact add|remove`: manage contacts.
struct Contact: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add a contact from their card, or remove one.",
        subcommands: [Add.self, Remove.self]
    )

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

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a contact: later contacts posts are not encrypted for them.")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The contact's feed id or name.")
        var contact: String

        @Flag(name: .customLong("keep-keys"), help: "Do not rotate your keys after the removal (the spec rotates them).")
        var keepKeys = false

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                let record = try await account.contacts.remove(try await account.contacts.resolve(contact).feedID)
                // Spec 4.3: rotate the contacts key after a removal (fresh dh key, key_rotation).
                if !keepKeys { try await account.rotation.rotate(reason: .scheduledRotation) }
                // Push: the removal queued their whitelist tokens for revocation; DELETE them at the gateway now.
                let push = await PushFlows.flushRevocations(account)
                if global.json {
                    var object = ContactRendering.json(record).objectValue ?? JSONObject()
                    object["keys_rotated"] = .bool(!keepKeys)
                    object["push_tokens_revoked"] = .integer(Int64(push.revoked))
                    object["push_tokens_pending_revocation"] = .integer(Int64(push.pending))
                    Output.json(.object(object))
                } else {
                    Output.line("Removed \(TerminalText.escaped(record.shownName)) (\(record.feedID)). Posts written from now on are not readable by them.")
                    if !keepKeys { Output.line("Your keys were rotated as well (fresh dh key; announced to your remaining contacts).") }
                    if push.revoked > 0 { Output.line("Revoked \(push.revoked) push tokens you had given them: they can no longer knock.") }
                    if push.pending > 0 { Output.line("\(push.pending) push tokens could not be revoked yet (gateway unreachable); `kith push refill` retries.") }
                }
            }
        }
    }
}

/// `kith contacts`: lists contacts, introductions and flagged key rotations.
struct Contacts: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List your contacts and the people contacts introduced.")

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

/// `kith react`: reacts to a message with an emoji.
struct React: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "React to a message with one emoji (visible to your contacts).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The message id.")
    var message: String

    @Argument(help: "One emoji.")
    var emoji: String

    func run() async throws {
        try await Output.run {
            let target = try parseMessageID(message)
            let account = try await openAccount(global)
            let envelope = try await account.publishing.react(to: target, emoji: emoji)
            Output.published(envelope, json: global.json, what: "Reacted \(TerminalText.escaped(emoji))")
        }
    }
}

/// `kith profile set`: publishes a profile update.
struct Profile: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Manage your profile.", subcommands: [Set.self])

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Publish your display name and avatar to your contacts.")

        @OptionGroup var global: GlobalOptions

        @Option(help: "Display name (at most 64 characters).")
        var name: String?

        @Option(help: "An image file; stored encrypted, its hash goes in the profile.")
        var avatar: String?

        func run() async throws {
            try await Output.run {
                guard name != nil || avatar != nil else { throw KithError.input(.invalid("give --name, --avatar or both")) }
                let image = try avatar.map { try Output.readFile($0) }
                let account = try await openAccount(global)
                let envelope = try await account.publishing.setProfile(displayName: name, avatar: image)
                Output.published(envelope, json: global.json, what: "Profile updated")
            }
        }
    }
}

/// `kith delete`: retracts one of your messages with a tombstone.
struct Delete: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Retract one of your messages (tombstone; copies already synced are hidden, not erased).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The message id.")
    var message: String

    func run() async throws {
        try await Output.run {
            let target = try parseMessageID(message)
            let account = try await openAccount(global)
            let envelope = try await account.publishing.delete(target)
            Output.published(envelope, json: global.json, what: "Retracted \(target.string.prefix(8))")
        }
    }
}

/// `kith introduce`: introduces one contact to another.
struct Introduce: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Introduce a contact to another contact (only the recipient can read it).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The contact to introduce (feed id or name).")
    var contact: String

    @Option(parsing: .unconditional, help: "The contact who receives the introduction (feed id or name).")
    var to: String

    @Option(help: "A note (at most 256 characters).")
    var note: String?

    func run() async throws {
        try await Output.run {
            let account = try await openAccount(global)
            let introduced = try await account.contacts.resolve(contact)
            let recipient = try await account.contacts.resolve(to)
            let envelope = try await account.contacts.introduce(introduced.feedID, to: recipient.feedID, note: note)
            Output.published(envelope, json: global.json, what: "Introduced \(TerminalText.escaped(contact)) to \(TerminalText.escaped(to))")
        }
    }
}

/// `kith rotate-keys`: announces new keys.
struct RotateKeys: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate-keys",
        abstract: "Rotate your identity, dh and pq keys; your feed id stays the same.",
        discussion: """
            Announces the new keys to your contacts in a key_rotation message signed by the old key             (previous_key_sig), then signs with the new key. Contacts keys are re-derived with the fresh             dh key (the spec's 30-day contacts key rotation). Give contacts you meet a fresh card afterwards.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: "Why: scheduled_rotation, device_migration or key_compromise.")
    var reason: String = KeyRotationReason.scheduledRotation.rawValue

    @Flag(name: .customLong("if-due"), help: "Only rotate when the last rotation is 30 days old or more.")
    var ifDue = false

    func run() async throws {
        try await Output.run {
            let account = try await openAccount(global)
            if ifDue, try await !account.rotation.isDue() {
                if global.json {
                    var object = JSONObject()
                    object["rotated"] = .bool(false)
                    Output.json(.object(object))
                } else {
                    Output.line("Keys are less than 30 days old; nothing to do.")
                }
                return
            }
            guard let reason = KeyRotationReason(rawValue: reason) else {
                // An unknown reason is invalid input (exit code 2), as it always was.
                throw KithError.input(.invalid("reason must be one of \(KeyRotationReason.allCases.map(\.rawValue).joined(separator: ", "))"))
            }
            try await account.rotation.rotate(reason: reason)
            if global.json {
                var object = account.publicKeysJSON.objectValue ?? JSONObject()
                object["rotated"] = .bool(true)
                Output.json(.object(object))
            } else {
                Output.line("Rotated your keys (\(reason.rawValue)). Feed id unchanged: \(account.feedID)")
                Output.line("New identity key: \(account.identity.publicKeys.identityKeyString)")
                Output.line("Your contacts learn the new keys from your feed (key_rotation, verified with your old key).")
            }
        }
    }
}

/// Shared helpers of the contact commands.
enum ContactRendering {
    static func json(_ record: ContactRecord) -> JSONValue {
        var object = JSONObject()
        object["feed_id"] = .string(record.feedID.string)
        object["name"] = record.localName.map { .string($0) } ?? .null
        object["display_name"] = record.displayName.map { .string($0) } ?? .null
        object["avatar_hash"] = record.avatarHash.map { .string($0) } ?? .null
        object["identity_key"] = .string(record.identityKey)
        object["last_seen_seq"] = .integer(record.lastSeenSequence)
        return .object(object)
    }
}

func parseMessageID(_ text: String) throws -> MessageID {
    do throws(FeedError) { return try MessageID(text) } catch { throw KithError.feed(error) }
}

extension Output {
    /// Prints what a publishing command appended.
    static func published(_ envelope: Envelope, json: Bool, what: String) {
        if json {
            var object = JSONObject()
            object["message_id"] = .string(envelope.messageID.string)
            object["sequence"] = .integer(Int64(envelope.sequence))
            object["audience"] = .string(envelope.audience.description)
            object["type"] = .string(envelope.type)
            Output.json(.object(object))
        } else {
            Output.line("\(what): #\(envelope.sequence) to \(envelope.audience) (message \(envelope.messageID))")
        }
    }

    /// Reads a whole file (at most 16 MiB).
    static func readFile(_ path: String) throws -> [UInt8] {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
            throw KithError.input(.file(path: path, reason: "no such file"))
        }
        if let size = attributes[.size] as? Int, size > ContactsLimits.maxBlobPlaintextBytes {
            throw KithError.input(.file(path: path, reason: "larger than \(ContactsLimits.maxBlobPlaintextBytes) bytes"))
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw KithError.input(.file(path: path, reason: "not readable")) }
        return Array(data)
    }
}

/// `kith blob export|import` and `kith attachment`: move encrypted attachments between devices.
struct Blob: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Move encrypted attachment blobs: export to a folder, import from files.",
        subcommands: [Export.self, Import.self, Get.self]
    )

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Write every held blob to DIR, one file per blob named by its content hash.")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The folder to write to (created if needed).")
        var directory: String

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                let url = URL(fileURLWithPath: directory)
                do {
                    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
                    let blobs = try await account.publishing.exportBlobs()
                    for blob in blobs {
                        try Data(blob).write(to: url.appendingPathComponent(BlobCipher.contentHash(of: blob)))
                    }
                    Output.line("Exported \(blobs.count) encrypted blobs to \(directory)")
                } catch let error as KithError {
                    throw error
                } catch {
                    throw KithError.fileSystem(path: directory, reason: error.localizedDescription)
                }
            }
        }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Store encrypted blob files received from a peer.")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "Blob files.")
        var files: [String]

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                for file in files { try await account.publishing.importBlob(try Output.readFile(file)) }
                Output.line("Imported \(files.count) blobs")
            }
        }
    }

    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "get", abstract: "Decrypt an attachment of a post you can read.")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The post's message id.")
        var message: String

        @Option(help: "Which attachment (from 0).")
        var index: Int = 0

        @Option(help: "Output file.")
        var out: String

        func run() async throws {
            try await Output.run {
                let id = try parseMessageID(message)
                let account = try await openAccount(global)
                let data = try await account.publishing.attachment(of: id, index: index)
                do { try Data(data).write(to: URL(fileURLWithPath: out)) } catch {
                    throw KithError.fileSystem(path: out, reason: error.localizedDescription)
                }
                Output.line("Wrote \(data.count) bytes to \(out)")
            }
        }
    }
}
