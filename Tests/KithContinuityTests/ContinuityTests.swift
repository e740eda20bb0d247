import KithContinuity
import Testing

@Suite struct ContinuityTests {
    @Test func mediaTypesAreKiths() {
        #expect(Continuity.mediaTypePrefix.hasPrefix("application/vnd.kith"))
    }
}
