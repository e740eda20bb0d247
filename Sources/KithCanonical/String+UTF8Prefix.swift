extension String {
    /// The longest prefix of whole characters whose UTF-8 fits in `limit` bytes (a display name or
    /// reason cut to a wire field without splitting a character).
    public func prefix(utf8Bytes limit: Int) -> String {
        var out = ""
        var used = 0
        for character in self {
            let count = character.utf8.count
            guard used + count <= limit else { break }
            out.append(character)
            used += count
        }
        return out
    }
}
