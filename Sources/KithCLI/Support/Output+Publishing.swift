import ArgumentParser
import Foundation
import KithTerminal
import Kith
import KithDemo
import KithCanonical
import KithFeed
import KithIdentity
import KithStore

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
