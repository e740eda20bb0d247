import ArgumentParser
import Foundation
import KithTerminal
import Kith
import KithDemo
import KithCanonical
import KithFeed
import KithIdentity
import KithStore

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
