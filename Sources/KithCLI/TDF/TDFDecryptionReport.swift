import Foundation
import KithCanonical
import KithTDF

extension TDFCommand {
    /// Writes a decrypted payload and says what was checked. A binding that could not be verified is never
    /// passed over: a warning on standard error in text mode, `"binding": "unverified"` with its reason in `--json`.
    static func report(_ result: NanoTDF.DecryptionResult, dialect: TDFDialectOption, output: String, json: Bool) throws {
        var note: String?
        if case .unverified(let reason) = result.binding { note = reason }
        guard json else {
            if let note { Output.error("kith: warning: policy binding not verified: \(note)") }
            try write(result.plaintext, to: output, binary: false)
            return
        }
        var fields = JSONObject()
        fields["dialect"] = .string(dialect.rawValue)
        fields["binding"] = .string(note == nil ? "verified" : "unverified")
        if let note { fields["binding_note"] = .string(note) }
        fields["hkdf_salt"] = .string(String(decoding: result.saltVersion.magicBytes, as: UTF8.self))
        fields["key_index"] = .integer(Int64(result.keyIndex))
        if output == "-" {
            fields["plaintext_base64url"] = .string(Base64URL.encode(result.plaintext))
        } else {
            try write(result.plaintext, to: output, binary: false)
            fields["output"] = .string(output)
        }
        Output.json(.object(fields))
    }
}
