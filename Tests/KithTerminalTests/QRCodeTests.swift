import Testing
@testable import KithTerminal

/// QR codes drawn for the terminal (contact cards, later invites).
@Suite struct QRCodeTests {
    /// About the size of a contact card's text today (1,947 base64url characters).
    static let cardSizedText = String(repeating: "Kith-card_", count: 195)

    @Test func textsRenderAsQRCodes() throws {
        let matrix = try QRCode.matrix(Self.cardSizedText)
        #expect(matrix.count >= 21 && (matrix.count - 17) % 4 == 0)
        #expect(matrix.allSatisfy { $0.count == matrix.count })
        // Finder pattern in the top-left corner: a dark 7×7 ring.
        #expect(matrix[0].prefix(7).allSatisfy { $0 } && matrix[6].prefix(7).allSatisfy { $0 })
        let text = try QRCode.render(Self.cardSizedText)
        #expect(text.split(separator: "\n").count == (matrix.count + 4 + 1) / 2)
    }

    @Test func tooLongTextsAreAClearError() {
        #expect(throws: QRCode.Failure.tooLong(bytes: 8_000)) { try QRCode.matrix(String(repeating: "x", count: 8_000)) }
    }
}
