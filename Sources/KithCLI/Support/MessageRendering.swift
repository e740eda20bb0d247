import Foundation
import KithTerminal
import KithCanonical
import KithFeed
import KithIdentity
import KithStore

/// How stored messages are shown by `kith log`.
enum MessageRendering {
    static func line(_ message: StoredMessage, localFeed: FeedID, author name: String? = nil) -> String {
        let date = Date(timeIntervalSince1970: TimeInterval(message.timestamp))
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withSpaceBetweenDateAndTime]
        let author = TerminalText.escaped(name ?? (message.feedID == localFeed ? "me" : String(message.feedID.string.prefix(8))))
        let prefix = "\(formatter.string(from: date)) \(author) #\(message.sequence) [\(TerminalText.escaped(message.audience))]"
        let type = TerminalText.escaped(message.type)
        guard let content = message.content else { return "\(prefix) \(type): (encrypted, not readable here)" }
        switch content {
        case .post(let post):
            let attached = post.attachments.isEmpty ? "" : " [\(post.attachments.count) attachment\(post.attachments.count == 1 ? "" : "s")]"
            let reply = post.replyTo.map { " (reply to \($0.string.prefix(8)))" } ?? ""
            return "\(prefix) \(TerminalText.escaped(post.body, multiline: true))\(attached)\(reply)"
        case .reaction(let reaction): return "\(prefix) reacted \(TerminalText.escaped(reaction.emoji)) to \(reaction.targetMessage.string.prefix(8))"
        case .profileUpdate(let update): return "\(prefix) profile: \(TerminalText.escaped(update.displayName ?? "(no name)"))"
        case .tombstone(let tombstone): return "\(prefix) retracted \(tombstone.targetMessage.string.prefix(8))"
        case .unknown: return "\(prefix) \(type): (unknown type, stored and relayed)"
        case .contactIntroduction(let intro):
            return "\(prefix) introduced \(intro.introducedFeedID.string.prefix(8))\(intro.note.map { ": \(TerminalText.escaped($0, multiline: true))" } ?? "")"
        case .keyRotation(let rotation): return "\(prefix) announced new keys (\(TerminalText.escaped(rotation.reason ?? "no reason given")))"
        case .prekeyBatch(let batch): return "\(prefix) handed over \(max(0, (batch.batchBytes.count - 3) / 36)) one-time prekeys"
        case .keyPackageOffer: return "\(prefix) handed over a group KeyPackage"
        case .groupTreeOffer: return "\(prefix) handed over where to find a group's member tree"
        case .inviteJoinRequest: return "\(prefix) asked to join a group through an invite"
        case .inviteJoinError(let error):
            return "\(prefix) refused an invite join (\(TerminalText.escaped(error.error))\(error.reason.map { ": \(TerminalText.escaped($0))" } ?? ""))"
        case .pushTokens(let tokens): return "\(prefix) handed over \(tokens.tokens.count) push tokens (to knock on them)"
        case .recoveryShare: return "\(prefix) handed over a recovery share (you hold it for them: `kith recovery held`)"
        case .recoveryRevocation: return "\(prefix) revoked the recovery share you held for them"
        case .groupEvent(let event): return "\(prefix) group \(TerminalText.escaped(event.event).replacingOccurrences(of: "_", with: " "))"
        }
    }

    static func json(_ message: StoredMessage) -> JSONValue {
        var object = JSONObject()
        object["message_id"] = .string(message.messageID.string)
        object["feed_id"] = .string(message.feedID.string)
        object["sequence"] = .integer(Int64(message.sequence))
        object["timestamp"] = .integer(message.timestamp)
        object["type"] = .string(message.type)
        object["audience"] = .string(message.audience)
        object["tombstoned"] = .bool(message.tombstoned)
        object["content"] = message.content.map { .object($0.jsonObject) } ?? .null
        return .object(object)
    }
}
