import Foundation
import KithCanonical
import KithGroups
import KithIdentity

/// The sealed list of this device's personas (`HOME/personas.sealed`, sealed under the main device seed with
/// ``PersonaSealing``): canonical JSON `{"personas":[{"id","feed_id","created","group_id"?,"name"?,"expires"?}]}`.
/// Nothing of it is readable without the main account's passphrase.
struct PersonaIndex: Sendable {
    /// One persona as the index records it.
    struct Entry: Sendable, Equatable {
        var id: String
        var feedID: FeedID
        var createdAt: Int64
        var groupID: GroupID?
        var conversation: String?
        var expiresAt: Int64?

        func persona(now: Int64) -> Persona {
            let state: Persona.State = if let expiresAt, expiresAt <= now { .expired } else if groupID == nil { .pending } else { .active }
            return Persona(id: id, feedID: feedID, groupID: groupID, conversation: conversation, createdAt: createdAt, expiresAt: expiresAt, state: state)
        }
    }

    var entries: [Entry] = []

    static func read(_ home: AccountHome, mainSeed: Seed) throws(PersonaError) -> PersonaIndex {
        guard let sealed = try PersonaSealing.read(home.personaIndexURL) else { return PersonaIndex() }
        let path = home.personaIndexURL.path
        let plain = try PersonaSealing.open(sealed, purpose: .index, localID: "", mainSeed: mainSeed, path: path)
        guard let object = (try? CanonicalJSON.parse(plain))?.objectValue, let list = object["personas"]?.arrayValue,
              list.count <= Account.Personas.maxPersonas else {
            throw .damaged(path: path, reason: "not a persona index")
        }
        var index = PersonaIndex()
        for item in list {
            guard let item = item.objectValue, let id = item["id"]?.stringValue, PersonaHome.isLocalID(id),
                  let feedText = item["feed_id"]?.stringValue, let feedID = try? FeedID(feedText),
                  let created = item["created"]?.integerValue else {
                throw .damaged(path: path, reason: "an entry lacks its id, feed id or creation time")
            }
            var entry = Entry(id: id, feedID: feedID, createdAt: created)
            if let group = item["group_id"]?.stringValue {
                guard let groupID = try? GroupID(group) else { throw .damaged(path: path, reason: "an entry's group id does not read") }
                entry.groupID = groupID
            }
            entry.conversation = item["name"]?.stringValue
            entry.expiresAt = item["expires"]?.integerValue
            index.entries.append(entry)
        }
        return index
    }

    func write(_ home: AccountHome, mainSeed: Seed) throws(KithError) {
        var list: [JSONValue] = []
        for entry in entries {
            var object = JSONObject()
            object["id"] = .string(entry.id)
            object["feed_id"] = .string(entry.feedID.string)
            object["created"] = .integer(entry.createdAt)
            if let groupID = entry.groupID { object["group_id"] = .string(groupID.string) }
            if let conversation = entry.conversation { object["name"] = .string(conversation) }
            if let expiresAt = entry.expiresAt { object["expires"] = .integer(expiresAt) }
            list.append(.object(object))
        }
        var root = JSONObject()
        root["personas"] = .array(list)
        let sealed: [UInt8]
        do throws(PersonaError) {
            sealed = try PersonaSealing.seal(CanonicalJSON.serialize(root), purpose: .index, localID: "", mainSeed: mainSeed)
        } catch {
            throw .persona(error)
        }
        do {
            try Data(sealed).write(to: home.personaIndexURL, options: .atomic)
        } catch {
            throw .fileSystem(path: home.personaIndexURL.path, reason: error.localizedDescription)
        }
    }
}
