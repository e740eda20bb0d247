import ArgumentParser
import KithTDF

/// `--dialect` of `kith tdf encrypt|decrypt`: which NanoTDF conventions to write or read (docs/TDF.md, "Dialects").
enum TDFDialectOption: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// The OpenTDF SDKs' dialect and Kith's own (the default).
    case sdk
    /// OpenTDFKit's, as the Arkavo app writes and reads it.
    case arkavo

    /// The library value.
    var dialect: NanoTDFDialect {
        switch self {
        case .sdk: .sdk
        case .arkavo: .arkavo
        }
    }
}

extension TDFDialectOption {
    /// Said after a decryption failure: the Arkavo app's files fail the SDK dialect's binding or tag checks.
    func hint(after error: NanoTDFError) -> String {
        guard self == .sdk else { return "" }
        switch error {
        case .policyBindingMismatch, .authenticationFailed: return " (a file of the Arkavo app or OpenTDFKit? try --dialect arkavo)"
        default: return ""
        }
    }
}
