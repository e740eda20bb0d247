import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithTDF
import KithTerminal

/// `kith tdf inspect|encrypt|decrypt|keygen`: NanoTDF files made by Kith or by other OpenTDF implementations
/// (docs/TDF.md, "Command line").
struct TDFCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tdf",
        abstract: "Inspect, encrypt and decrypt NanoTDF files (OpenTDF's L1L format, Kith's dialect).",
        subcommands: [Inspect.self, Encrypt.self, Decrypt.self, Keygen.self]
    )

    /// Largest file read: a NanoTDF payload is at most 2^24 − 1 bytes, plus its header.
    static let maxFileBytes = NanoTDFLimits.maximumPayloadLength + 64 * 1024

    // MARK: Helpers

    /// Reads a file, or standard input for `-`, up to ``maxFileBytes``.
    static func read(_ path: String) throws -> [UInt8] {
        if path == "-" {
            let data = FileHandle.standardInput.readData(ofLength: maxFileBytes + 1)
            guard data.count <= maxFileBytes else { throw KithError.input(.file(path: path, reason: "larger than \(maxFileBytes) bytes")) }
            return Array(data)
        }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
            throw KithError.input(.file(path: path, reason: "no such file"))
        }
        if let size = attributes[.size] as? Int, size > maxFileBytes {
            throw KithError.input(.file(path: path, reason: "larger than \(maxFileBytes) bytes"))
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw KithError.input(.file(path: path, reason: "not readable")) }
        return Array(data)
    }

    /// Writes `bytes` to a file or standard output; text for a terminal has its control characters escaped.
    static func write(_ bytes: [UInt8], to path: String, binary: Bool) throws {
        if path == "-" {
            if isatty(STDOUT_FILENO) != 0 {
                if binary { throw KithError.input(.invalid("a NanoTDF is binary: write it to a file (-o FILE) or a pipe")) }
                Output.line(TerminalText.escaped(String(decoding: bytes, as: UTF8.self), multiline: true))
            } else {
                FileHandle.standardOutput.write(Data(bytes))
            }
            return
        }
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw KithError.fileSystem(path: path, reason: "cannot write the file")
        }
    }

    static func parse(_ bytes: [UInt8], file: String, options: NanoTDF.ReadOptions = .init()) throws -> NanoTDF {
        do throws(NanoTDFError) { return try NanoTDF(parsing: bytes, options: options) } catch {
            throw KithError.input(.invalid("\(file) is not a NanoTDF: \(error.description)"))
        }
    }

    /// A key argument: a readable file's bytes, else hex.
    static func keyBytes(_ argument: String) throws -> [UInt8] {
        if FileManager.default.fileExists(atPath: argument) {
            let bytes = try read(argument)
            if let text = String(bytes: bytes, encoding: .utf8), !text.contains("-----BEGIN"),
               let hex = Hex.decode(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                return hex
            }
            return bytes
        }
        guard argument.utf8.count <= 512, let hex = Hex.decode(argument) else {
            throw KithError.input(.invalid("the key is neither a readable file nor hex"))
        }
        return hex
    }

    static func publicKey(_ argument: String) throws -> NanoTDF.PublicKey {
        do { return try NanoTDF.PublicKey(encoded: try keyBytes(argument)) } catch let error as NanoTDFError {
            throw KithError.input(.invalid("the public key: \(error.description)"))
        }
    }

    static func privateKey(_ argument: String) throws -> NanoTDF.PrivateKey {
        do { return try NanoTDF.PrivateKey(encoded: try keyBytes(argument)) } catch let error as NanoTDFError {
            throw KithError.input(.invalid("the private key: \(error.description)"))
        }
    }

    /// `https://host/path` or `http://host/path` as a KAS locator.
    static func locator(_ url: String) throws -> NanoTDF.ResourceLocator {
        let schemes: [(String, NanoTDF.ResourceLocator.Scheme)] = [("https://", .https), ("http://", .http)]
        guard let (prefix, scheme) = schemes.first(where: { url.hasPrefix($0.0) }) else {
            throw KithError.input(.invalid("--kas-url must start with https:// or http://"))
        }
        do throws(NanoTDFError) { return try NanoTDF.ResourceLocator(scheme: scheme, body: String(url.dropFirst(prefix.count))) } catch {
            throw KithError.input(.invalid("--kas-url: \(error.description)"))
        }
    }

    /// The header fields, as `kith tdf inspect` shows them.
    static func describe(_ nano: NanoTDF) -> JSONObject {
        let header = nano.header
        var fields = JSONObject()
        fields["magic"] = .string(Hex.encode(header.version.magicBytes))
        fields["version"] = .string(header.version == .v12 ? "L1L (12)" : "L1M (13)")
        fields["kas_scheme"] = .string("\(header.kas.scheme)")
        fields["kas_url"] = .string(String(decoding: header.kas.body, as: UTF8.self))
        fields["kas_key_id"] = .string(Hex.encode(header.kas.identifier))
        fields["curve"] = .string(header.ephemeralCurve.description)
        fields["binding"] = .string(header.usesECDSABinding ? "ecdsa" : "gmac")
        fields["cipher"] = .string("AES-256-GCM")
        fields["tag_bits"] = .integer(Int64(header.cipher.tagSize * 8))
        fields["policy_type"] = .string(policyType(header.policy.body))
        fields["ephemeral_public_key"] = .string(Hex.encode(header.ephemeralPublicKey))
        fields["payload_length"] = .integer(Int64(nano.payload.length))
        fields["signed"] = .bool(header.hasSignature)
        if let recipient = header.recipientPublicKey { fields["recipient_public_key"] = .string(Hex.encode(recipient.key)) }
        if case .embeddedPlaintext(let content) = header.policy.body { fields["policy"] = .string(String(decoding: content, as: UTF8.self)) }
        return fields
    }

    static func policyType(_ body: NanoTDF.Policy.Body) -> String {
        switch body {
        case .remote: "remote"
        case .embeddedPlaintext: "embedded plaintext"
        case .embeddedEncrypted: "embedded encrypted"
        case .embeddedEncryptedWithKeyAccess: "embedded encrypted with key access"
        }
    }

    static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .bool(let flag): flag ? "yes" : "no"
        default: String(decoding: CanonicalJSON.serialize(value), as: UTF8.self)
        }
    }
}
