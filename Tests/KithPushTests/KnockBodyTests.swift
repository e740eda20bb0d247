import KithPush
import Testing

/// The knock body: ChatSecure's shape, read strictly by the receiving device.
@Suite struct KnockBodyTests {
    static let token = "1daf13e01982d3029cf09ae3d027a62923f0f2b6"

    @Test func chatSecuresShapeParses() throws {
        let body = try KnockBody(bytes: Array(#"{"message":{"data":null,"token":"\#(Self.token)"}}"#.utf8))
        #expect(body.token.hex == Self.token && body.data == nil)
        #expect(body.bytes == Array(#"{"message":{"data":null,"token":"\#(Self.token)"}}"#.utf8))
        #expect(try KnockBody(bytes: Array(#"{"message":{"data":"hey","token":"\#(Self.token)"}}"#.utf8)).data == "hey")
        #expect(try KnockBody(bytes: Array(#"{"message":{"token":"\#(Self.token)"}}"#.utf8)).data == nil)
    }

    @Test func everythingElseIsRejected() {
        let long = String(repeating: "d", count: 101)
        for text in [
            "", "[]", "{}", #"{"message":"x"}"#,
            #"{"message":{"token":"\#(Self.token)"},"aps":{}}"#,
            #"{"message":{"data":null,"token":"\#(Self.token)","text":"hello"}}"#,
            #"{"message":{"data":null,"token":"1daf"}}"#,
            #"{"message":{"data":7,"token":"\#(Self.token)"}}"#,
            #"{"message":{"data":"\#(long)","token":"\#(Self.token)"}}"#,
            #"{"message":{"data":null}}"#,
        ] {
            #expect(throws: KnockBodyError.self, "\(text)") { try KnockBody(bytes: Array(text.utf8)) }
        }
        #expect(throws: KnockBodyError.self) { try KnockBody(bytes: Array(repeating: 0x20, count: 2000)) }
    }
}
