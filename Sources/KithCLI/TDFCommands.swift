import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithTDF
import KithTerminal

/// `kith tdf inspect|encrypt|decrypt|keygen`: NanoTDF files made by Kith or by other OpenTDF implementations
/// (docs/TDF.md, "Command line").
struct TDF: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tdf",
        abstract: "Inspect, encrypt and decrypt NanoTDF files (OpenTDF's L1L format, Kith's dialect).",
        subcommands: [Inspect.self, Encrypt.self, Decrypt.self, Keygen.self]
    )

    /// Largest file read: a NanoTDF payload is at most 2^24 − 1 bytes, plus its header.
    static let maxFileBytes = NanoTDFLimits.maximumPayloadLength + 64 * 1024

    struct Inspect: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print a NanoTDF's header fields (no key needed).")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The NanoTDF file (`-` for standard input).")
        var file: String

        func run() async throws {
            try await Output.run {
                let nano = try TDF.parse(try TDF.read(file), file: file)
                let fields = TDF.describe(nano)
                if global.json {
                    Output.json(.object(fields))
                } else {
                    for (name, value) in fields.members.sorted(by: { $0.key < $1.key }) {
                        Output.line("\(name): \(TerminalText.escaped(TDF.text(value)))")
                    }
                }
            }
        }
    }

    struct Encrypt: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Encrypt a file for a P-256 public key (L1L, AES-256-GCM with a 128-bit tag, GMAC binding).",
            discussion: """
                The key is a PEM file (SubjectPublicKeyInfo), a raw X9.62 file, or X9.62 bytes in hex. With --dialect arkavo \
                the file is what the Arkavo app's reader opens (L1M with the recipient key; docs/TDF.md, "Dialects").
                """
        )

        @OptionGroup var global: GlobalOptions

        @Option(help: "The recipient's P-256 public key: a file (PEM or raw X9.62) or hex.")
        var to: String

        @Option(help: "The key access server the header names (any OpenTDF tool needs one; Kith decrypts without it).")
        var kasURL = "https://localhost/kas"

        @Option(help: "The policy embedded in clear.")
        var policy = #"{"body":{"dataAttributes":[],"dissem":[]}}"#

        @Flag(help: "Embed the policy encrypted under the payload key instead.")
        var encryptPolicy = false

        @Option(help: "sdk (OpenTDF SDKs, Kith) or arkavo (an L1M file the Arkavo app's reader opens).")
        var dialect = TDFDialectOption.sdk

        @Option(name: .shortAndLong, help: "Where to write the NanoTDF (`-` for standard output).")
        var output = "-"

        @Argument(help: "The file to encrypt (`-` for standard input).")
        var file: String

        func run() async throws {
            try await Output.run {
                let recipient = try TDF.publicKey(to)
                guard recipient.curve == .secp256r1 else {
                    throw KithError.input(.invalid("Kith writes NanoTDFs to P-256 keys only; this key is on \(recipient.curve)"))
                }
                let configuration = NanoTDF.EncryptionConfiguration(
                    kas: try TDF.locator(kasURL), policy: encryptPolicy ? .encrypted(Array(policy.utf8)) : .plaintext(Array(policy.utf8)),
                    version: dialect == .arkavo ? .v13 : .v12, dialect: dialect.dialect
                )
                let plaintext = try TDF.read(file)
                let nano: NanoTDF
                do throws(NanoTDFError) { nano = try NanoTDF.encrypt(plaintext, to: recipient, configuration: configuration) } catch {
                    throw KithError.input(.invalid("cannot encrypt: \(error.description)"))
                }
                try TDF.write(nano.serialized, to: output, binary: true)
            }
        }
    }

    struct Decrypt: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Decrypt a NanoTDF with the recipient's private key (P-256, P-384 or P-521).",
            discussion: """
                The key is a PEM file (PKCS#8 or SEC1), a raw scalar file, or the scalar in hex. The policy binding, any \
                signature and the payload tag are checked before any plaintext is released; with --dialect arkavo a binding \
                that cannot be verified is reported on standard error (or as "binding": "unverified" with --json). Written to a terminal, the \
                plaintext is shown with control characters escaped; piped or written to a file, it is written as is.
                """
        )

        @OptionGroup var global: GlobalOptions

        @Option(help: "The recipient's private key: a file (PEM or raw scalar) or hex; repeat it to offer several (an L1M header names the one it needs).")
        var key: [String]

        @Option(help: "sdk (OpenTDF SDKs, Kith) or arkavo (files of the Arkavo app, OpenTDFKit).")
        var dialect = TDFDialectOption.sdk

        @Option(name: .shortAndLong, help: "Where to write the plaintext (`-` for standard output).")
        var output = "-"

        @Argument(help: "The NanoTDF file (`-` for standard input).")
        var file: String

        func run() async throws {
            try await Output.run {
                let keys = try key.map(TDF.privateKey)
                let nano = try TDF.parse(try TDF.read(file), file: file, options: dialect.dialect.readOptions)
                let result: NanoTDF.DecryptionResult
                do throws(NanoTDFError) { result = try nano.decrypt(usingAnyOf: keys, dialect: dialect.dialect) } catch {
                    throw KithError.input(.invalid("cannot decrypt \(file): \(error.description)\(dialect.hint(after: error))"))
                }
                try TDF.report(result, dialect: dialect, output: output, json: global.json)
            }
        }
    }

    struct Keygen: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a P-256 key pair: the private key (PKCS#8 PEM) goes to a new file readable by you only, the public key (PEM) to standard output."
        )

        @OptionGroup var global: GlobalOptions

        @Option(help: "The file for the private key (must not exist).")
        var privateKey: String

        func run() async throws {
            try await Output.run {
                let key: NanoTDF.PrivateKey
                do throws(NanoTDFError) { key = try NanoTDF.PrivateKey(generatingOn: .secp256r1) } catch {
                    throw KithError.input(.invalid("cannot make a key: \(error.description)"))
                }
                guard !FileManager.default.fileExists(atPath: privateKey) else {
                    throw KithError.fileSystem(path: privateKey, reason: "already exists; choose a new path")
                }
                guard FileManager.default.createFile(
                    atPath: privateKey, contents: Data(key.pemRepresentation.utf8 + [0x0A]), attributes: [.posixPermissions: 0o600]
                ) else {
                    throw KithError.fileSystem(path: privateKey, reason: "cannot create the file")
                }
                if global.json {
                    Output.json(.object(["public_key_pem": .string(key.publicKey.pemRepresentation), "private_key_file": .string(privateKey)]))
                } else {
                    Output.line(key.publicKey.pemRepresentation)
                }
            }
        }
    }

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
