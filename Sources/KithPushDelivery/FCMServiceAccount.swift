import CryptoExtras
import KithCanonical

/// The parts of a Google service-account key file (`type: service_account`) that FCM HTTP v1 needs.
public struct FCMServiceAccount: Sendable {
    /// The account's email (`client_email`), the OAuth assertion's `iss`.
    public let clientEmail: String
    /// The Firebase project id (`project_id`), part of the send URL.
    public let projectID: String
    /// The OAuth 2.0 token endpoint (`token_uri`, normally `https://oauth2.googleapis.com/token`).
    public let tokenURI: String
    /// The RSA signing key (`private_key`, PKCS#8 PEM), for RS256 assertions.
    public let privateKey: _RSA.Signing.PrivateKey

    /// Bounds for a service-account file.
    static let limits = JSONLimits(maxBytes: 64 * 1024, maxDepth: 2, maxStringBytes: 16 * 1024, maxContainerElements: 32, maxTotalValues: 64)

    /// Creates an account from its parts.
    public init(clientEmail: String, projectID: String, tokenURI: String, privateKey: _RSA.Signing.PrivateKey) throws(PushConfigurationError) {
        guard !clientEmail.isEmpty, clientEmail.utf8.count <= 320, clientEmail.contains("@") else {
            throw .invalidServiceAccount(reason: "client_email must be an email address")
        }
        let projectAllowed: (Character) -> Bool = { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }
        guard !projectID.isEmpty, projectID.utf8.count <= 64, projectID.allSatisfy(projectAllowed) else {
            throw .invalidServiceAccount(reason: "project_id must be 1…64 lowercase letters, digits or '-'")
        }
        guard tokenURI.hasPrefix("https://") || tokenURI.hasPrefix("http://"), tokenURI.utf8.count <= 1_000 else {
            throw .invalidServiceAccount(reason: "token_uri must be an http(s) URL")
        }
        self.clientEmail = clientEmail
        self.projectID = projectID
        self.tokenURI = tokenURI
        self.privateKey = privateKey
    }

    /// Parses the JSON of a service-account key file.
    ///
    /// - Parameter tokenURIOverride: replaces the file's `token_uri` (a test mock or a proxy).
    /// - Throws: ``PushConfigurationError/invalidServiceAccount(reason:)`` or
    ///   ``PushConfigurationError/invalidPrivateKey(what:reason:)``.
    public static func parse(json: String, tokenURIOverride: String? = nil) throws(PushConfigurationError) -> FCMServiceAccount {
        let object: JSONObject
        do {
            guard let parsed = try CanonicalJSON.parse(Array(json.utf8), limits: limits).objectValue else {
                throw PushConfigurationError.invalidServiceAccount(reason: "not a JSON object")
            }
            object = parsed
        } catch let error as PushConfigurationError {
            throw error
        } catch {
            throw .invalidServiceAccount(reason: "not JSON within limits: \(error)")
        }
        if let type = object["type"]?.stringValue, type != "service_account" {
            throw .invalidServiceAccount(reason: "type is \(type.prefix(32)), not service_account")
        }
        func field(_ name: String) throws(PushConfigurationError) -> String {
            guard let value = object[name]?.stringValue, !value.isEmpty else {
                throw .invalidServiceAccount(reason: "\(name) is missing or not a string")
            }
            return value
        }
        let pem = try field("private_key")
        let key: _RSA.Signing.PrivateKey
        do { key = try _RSA.Signing.PrivateKey(pemRepresentation: pem) } catch {
            throw .invalidPrivateKey(what: "service-account private_key", reason: "not an RSA private key PEM of 2048 bits or more")
        }
        let tokenURI = tokenURIOverride ?? (object["token_uri"]?.stringValue ?? "https://oauth2.googleapis.com/token")
        return try FCMServiceAccount(clientEmail: field("client_email"), projectID: field("project_id"), tokenURI: tokenURI, privateKey: key)
    }
}
