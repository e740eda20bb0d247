import KithCanonical
import PropertyBased
import Testing

/// Non-canonical spellings: the parser's canonical fast path must agree with re-serialization.
@Suite struct CanonicalJSONSpellingPropertyTests {
    @Test func everySpellingParsesToTheValueAndOnlyTheCanonicalOneIsAccepted() async {
        await propertyCheck(count: 1000, input: JSONValueGenerator.tree, JSONValueGenerator.seed) { value, seed in
            let spelled = NonCanonicalSpelling.spell(value, seed: seed)
            let canonical = CanonicalJSON.serialize(value)
            #expect((try? CanonicalJSON.parse(spelled)) == value)
            do throws(CanonicalJSONError) {
                let accepted = try CanonicalJSON.parseCanonical(spelled)
                #expect(spelled == canonical)
                #expect(accepted == value)
            } catch {
                guard case .notCanonical(let offset) = error else {
                    Issue.record("unexpected \(error)")
                    return
                }
                #expect(spelled != canonical)
                #expect(offset <= min(spelled.count, canonical.count))
                #expect(Array(spelled.prefix(offset)) == Array(canonical.prefix(offset)))
                if offset < min(spelled.count, canonical.count) { #expect(spelled[offset] != canonical[offset]) }
            }
        }
    }
}
