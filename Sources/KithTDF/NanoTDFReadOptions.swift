extension NanoTDF {
    /// Choices the bytes alone cannot settle when reading.
    public struct ReadOptions: Sendable, Equatable {
        /// How ECDSA policy bindings are laid out: length-prefixed (SDKs, Kith; the default) or fixed `r ‖ s` (spec examples).
        public var ecdsaBindingEncoding: ECDSABindingEncoding

        /// Creates read options; the defaults read Kith's dialect.
        public init(ecdsaBindingEncoding: ECDSABindingEncoding = .lengthPrefixed) {
            self.ecdsaBindingEncoding = ecdsaBindingEncoding
        }
    }
}
