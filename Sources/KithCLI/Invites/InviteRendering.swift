import Foundation
import Kith
import KithCanonical
import KithInvites
import KithTerminal

/// How `kith invite` prints an invite: JSON objects and sanitized terminal lines (every text field of an invite is
/// a stranger's: names and descriptions go through ``TerminalText/escaped(_:multiline:indent:)``).
enum InviteJSON {
    /// Every payload field, the signature and the sizes.
    static func fields(of invite: SignedInvite) -> JSONObject {
        let payload = invite.payload
        var object = JSONObject()
        object["format"] = .string(payload.format == .legacy ? "legacy" : "current")
        object["creator_inbox_id"] = .string(payload.creatorInboxID.hex)
        object["creator_feed_id"] = payload.creatorInboxID.feedID.map { JSONValue.string($0.string) } ?? .null
        object["tag"] = .string(payload.tag)
        object["conversation_token"] = .string(Base64URL.encode(payload.conversationToken.bytes))
        object["name"] = payload.name.map { JSONValue.string($0) } ?? .null
        object["description"] = payload.description.map { JSONValue.string($0) } ?? .null
        object["image_url"] = payload.imageURL.map { JSONValue.string($0) } ?? .null
        object["emoji"] = payload.emoji.map { JSONValue.string($0) } ?? .null
        object["conversation_expires_at"] = payload.conversationExpiresAtUnix.map { JSONValue.integer($0) } ?? .null
        object["expires_at"] = payload.expiresAtUnix.map { JSONValue.integer($0) } ?? .null
        object["expires_after_use"] = .bool(payload.expiresAfterUse)
        object["signature"] = .string(Hex.encode(invite.signature.bytes))
        object["payload_bytes"] = .integer(Int64(invite.payloadBytes.count))
        object["invite_id"] = .string(InviteJoinLadder.inviteID(of: invite))
        object["reach"] = payload.reach.map { JSONValue.object(reach($0, of: payload)) } ?? .null
        return object
    }

    /// Kith's reach field: the creator's compact card (checked: signature, feed id equal to the creator inbox id) and
    /// where the creator answers strangers.
    static func reach(_ reach: InviteReach, of payload: InvitePayload) -> JSONObject {
        var object = JSONObject()
        object["server"] = reach.server.map { JSONValue.string($0) } ?? .null
        object["join_code"] = reach.joinCode.map { JSONValue.string($0) } ?? .null
        object["compact_card_bytes"] = .integer(Int64(reach.compactCardBytes.count))
        if let card = try? reach.compactCard() {
            object["card_verifies"] = .bool(true)
            object["card_feed_id"] = .string(card.feedID.string)
            object["card_name"] = .string(card.displayName)
            object["card_matches_creator"] = .bool(ConstantTime.equals(card.feedID.rawBytes, payload.creatorInboxID.bytes))
        } else {
            object["card_verifies"] = .bool(false)
        }
        return object
    }

    /// The reach field as terminal lines (the card's name is the creator's text: sanitized).
    static func reachLines(_ payload: InvitePayload) -> [String] {
        guard let reach = payload.reach else { return ["creator card:           (none: only the creator's contacts can join)"] }
        let card: String
        if let compact = try? reach.compactCard() {
            let matches = ConstantTime.equals(compact.feedID.rawBytes, payload.creatorInboxID.bytes)
            card = "\(TerminalText.escaped(compact.displayName)) (feed \(compact.feedID.string.prefix(8))…), signature verifies, "
                + (matches ? "matches the creator inbox id" : "DOES NOT match the creator inbox id: do not use this invite")
        } else {
            card = "present but does NOT verify: do not use this invite"
        }
        let via = reach.server.map { "\(TerminalText.escaped($0)), join code \(TerminalText.escaped(reach.joinCode ?? ""))" } ?? "(no server: strangers cannot reach the creator)"
        return ["creator card:           \(card)", "reachable via:          \(via)"]
    }

    /// The inspection as one JSON object.
    static func inspection(_ inspection: InviteInspection) -> JSONObject {
        var object = fields(of: inspection.invite)
        object["signer"] = .string(Hex.encode(inspection.signer.compressed))
        object["signer_address"] = .string("0x" + Hex.encode(inspection.signer.address))
        switch inspection.signerCheck {
        case .inboxBinding(let nonce):
            object["signer_check"] = .string("inbox_binding")
            object["binding_nonce"] = .integer(Int64(nonce))
        case .knownContact(let feed):
            object["signer_check"] = .string("known_contact")
            object["contact"] = .string(feed.string)
        case .ownInvite: object["signer_check"] = .string("own_invite")
        case .contactMismatch(let feed):
            object["signer_check"] = .string("contact_mismatch")
            object["contact"] = .string(feed.string)
        case .unbound: object["signer_check"] = .string("unbound")
        case .notCompared: object["signer_check"] = .string("not_compared")
        }
        object["authenticated"] = .bool(inspection.isAuthenticated)
        object["invite_expired"] = .bool(inspection.inviteExpired)
        object["conversation_expired"] = .bool(inspection.conversationExpired)
        return object
    }

    /// The inspection as terminal lines.
    static func lines(_ inspection: InviteInspection) -> [String] {
        let invite = inspection.invite
        let payload = invite.payload
        func text(_ value: String?) -> String { value.map { TerminalText.escaped($0) } ?? "(none)" }
        func time(_ value: Int64?, expired: Bool) -> String {
            guard let value else { return "never" }
            let date = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(value)))
            return "\(value) (\(date))\(expired ? ", PASSED" : "")"
        }
        let check: String
        switch inspection.signerCheck {
        case .inboxBinding(let nonce): check = "binds to the creator inbox id (XMTP inbox, nonce \(nonce))"
        case .knownContact(let feed): check = "the invite key on the card of your contact \(feed.string.prefix(8))"
        case .ownInvite: check = "your own invite key"
        case .contactMismatch(let feed): check = "NOT the invite key of your contact \(feed.string.prefix(8)): do not trust this invite"
        case .unbound: check = "recovers, but nothing here binds it to the creator (unknown creator)"
        case .notCompared: check = "recovers; not compared with contacts (no identity in this home: `kith init` to have one)"
        }
        return [
            "format:                 \(payload.format == .legacy ? "legacy (October 2025)" : "current")",
            "name:                   \(text(payload.name))",
            "description:            \(text(payload.description))",
            "image URL:              \(text(payload.imageURL))",
            "emoji:                  \(text(payload.emoji))",
            "tag:                    \(TerminalText.escaped(payload.tag))",
            "creator inbox id:       \(payload.creatorInboxID.hex)",
            "creator feed id:        \(payload.creatorInboxID.feedID?.string ?? "-")",
            "conversation token:     \(payload.conversationToken.bytes.count) bytes (only the creator opens it)",
            "invite expires:         \(time(payload.expiresAtUnix, expired: inspection.inviteExpired))",
            "conversation explodes:  \(time(payload.conversationExpiresAtUnix, expired: inspection.conversationExpired))",
            "single use:             \(payload.expiresAfterUse ? "yes" : "no")",
            "signer:                 \(Hex.encode(inspection.signer.compressed)) (address 0x\(Hex.encode(inspection.signer.address)))",
            "signer check:           \(check)",
            "invite id:              \(InviteJoinLadder.inviteID(of: invite))",
        ] + reachLines(payload)
    }
}
