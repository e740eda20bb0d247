import KithContinuity

extension FuzzTarget {
    /// The device-move formats a stranger controls: a move code (text, also as a text prefix-less payload) and a
    /// move message from the peer of a move link.
    static let moveFormats = FuzzTarget(name: "move-formats", summary: "KithContinuity move codes and move messages") { input in
        _ = try? MoveMessage(decoding: input)
        if let text = FuzzProperty.text(input) {
            _ = try? MoveCode(text: text)
            _ = try? MoveCode(text: MoveCode.prefix + text)
        }
    }
}
