import Kith
import KithContinuity

/// The guardian's check before any release, the same for a pasted request and one received through the relay: the
/// safety code of the request on this screen against the code the person reads aloud.
enum RecoverySafetyCheck {
    /// Shows the request's safety code (for `name`, already escaped) and compares it with `heard` (`--code`), or with
    /// the code typed when `heard` is nil; only digits count.
    /// - Throws: `KithError.input` when the codes differ (nothing may be released).
    static func confirm(_ request: RecoveryRequest, name: String, heard: String?) async throws {
        var heard = heard
        if heard == nil {
            Output.error("Recovery request for \(name). Safety code on this device: \(request.safetyCode)")
            Output.error("Type the code the person reads to you: ")
            for await line in StandardInputLines.stream() {
                heard = line
                break
            }
        }
        let digits = { (text: String) in text.filter(\.isNumber) }
        guard let heard, digits(heard) == digits(request.safetyCode) else {
            throw KithError.input(.invalid("the safety codes differ: do not release (the request may not be theirs)"))
        }
    }
}
