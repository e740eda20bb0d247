import Foundation
import KithTestSupport

/// `Tests/Vectors/convos-invites/python-invites.json`, made by `Interop/invites/invite_vectors.py`.
struct PythonInviteVector: Decodable, Sendable {
    struct Fields: Decodable, Sendable {
        let tag: String
        let name: String?
        let description: String?
        let imageURL: String?
        let conversationExpiresAtUnix: Int64?
        let expiresAtUnix: Int64?
        let expiresAfterUse: Bool?
        let emoji: String?
    }

    let name: String
    let private_key: String
    let public_key: String
    let address: String
    let inbox_nonce: UInt64
    let inbox_id: String
    let conversation_id: String
    let token_nonce: String
    let token: String
    let legacy: Bool
    let kith_serialization: Bool
    let compressed: Bool
    let zlib_wrapped: Bool
    let payload: String
    let signature: String
    let signed_invite: String
    let slug: String
    let url: String
    let fields: Fields

    static func all() throws -> [PythonInviteVector] {
        struct File: Decodable { let vectors: [PythonInviteVector] }
        let data = try TestPaths.officialVector("convos-invites/python-invites.json")
        return try JSONDecoder().decode(File.self, from: data).vectors
    }

    static func named(_ name: String) throws -> PythonInviteVector {
        guard let vector = try all().first(where: { $0.name == name }) else { throw Missing(name: name) }
        return vector
    }

    struct Missing: Error { let name: String }
}

func hex(_ text: String) -> [UInt8] { TestPaths.hex(text) ?? [] }
func hexString(_ bytes: [UInt8]) -> String { TestPaths.hexString(bytes) }
