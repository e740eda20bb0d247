import KithCanonical
import KithIdentity
import Testing

/// The card phase's messages: exact round trips and a typed refusal for every malformed form.
struct CardPhaseMessageTests {
    @Test func everyMessageRoundTrips() throws {
        let messages: [CardPhaseMessage] = [
            .opening(wanted: nil), .opening(wanted: Array(repeating: 7, count: 32)), .card([1, 2, 3]),
            .card(Array(repeating: 9, count: CardPhaseMessage.maximumCardLength)), .noCard,
        ]
        for message in messages { #expect(try CardPhaseMessage(decoding: message.encoded()) == message) }
        #expect(CardPhaseMessage.opening(wanted: nil).encoded() == [0x01, 0x00])
        #expect(CardPhaseMessage.card([0xAB]).encoded() == [0x02, 0x00, 0x01, 0xAB])
    }

    @Test func malformedMessagesAreRefusedWithTheirReason() {
        func refusal(_ bytes: [UInt8]) -> CardPhaseError? {
            do throws(CardPhaseError) { _ = try CardPhaseMessage(decoding: bytes); return nil } catch { return error }
        }
        #expect(refusal([]) != nil)
        #expect(refusal([0x07]) == .unknownKind(7))
        #expect(refusal([0x01, 0x02]) == .unknownFlags(2))
        #expect(refusal([0x01, 0x01] + Array(repeating: 0, count: 31)) != nil)
        #expect(refusal([0x01, 0x00, 0x00]) != nil)
        #expect(refusal([0x02, 0x00, 0x00]) == .cardLength(0))
        #expect(refusal([0x02, 0x10, 0x01] + Array(repeating: 0, count: 4_097)) == .cardLength(4_097))
        #expect(refusal([0x02, 0x00, 0x02, 0x01]) != nil)
        #expect(refusal([0x03, 0x00]) != nil)
    }
}
