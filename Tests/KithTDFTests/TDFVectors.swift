import Foundation
import KithCanonical
import KithTestSupport
import Testing
@testable import KithTDF

/// Access to the vendored NanoTDF vectors (`Tests/Vectors/nanotdf/`).
enum TDFVectors {
    static func file(_ relativePath: String) throws -> [UInt8] {
        Array(try TestPaths.officialVector("nanotdf/" + relativePath))
    }

    static func json(_ relativePath: String) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: TestPaths.officialVector("nanotdf/" + relativePath))
        guard let root = object as? [String: Any], let vectors = root["vectors"] as? [[String: Any]] else {
            throw VectorError.malformed(relativePath)
        }
        return vectors
    }

    static func hex(_ vector: [String: Any], _ key: String) throws -> [UInt8] {
        guard let text = vector[key] as? String, let bytes = TestPaths.hex(text) else { throw VectorError.missing(key) }
        return bytes
    }

    static func string(_ vector: [String: Any], _ key: String) throws -> String {
        guard let text = vector[key] as? String else { throw VectorError.missing(key) }
        return text
    }

    enum VectorError: Error { case malformed(String), missing(String) }

    /// Compares a published vector file (`TestVectors/…`, rewritten with `KITH_WRITE_VECTORS=1`) with what this
    /// implementation generates, and returns its `vectors` objects as published.
    static func published(at url: URL, generated: JSONValue) throws -> [JSONObject] {
        let bytes = try TestPaths.publishedVector(at: url, generated: CanonicalJSON.serialize(generated))
        #expect(bytes == CanonicalJSON.serialize(generated))
        let vectors = try #require(try CanonicalJSON.parse(bytes).objectValue?["vectors"]?.arrayValue)
        return vectors.compactMap(\.objectValue)
    }

    /// A fixed P-256 recipient used by Kith's own tests and published vectors.
    static func recipient(_ curve: NanoTDF.Curve = .secp256r1) throws -> NanoTDF.PrivateKey {
        try NanoTDF.PrivateKey(curve: curve, rawScalar: [UInt8](repeating: 0x11, count: curve.coordinateSize - 1) + [0x22])
    }

    static func kas() throws -> NanoTDF.ResourceLocator {
        try NanoTDF.ResourceLocator(scheme: .sharedResourceDirectory, body: "kith.local", identifier: [1, 2, 3, 4, 5, 6, 7, 8])
    }
}
