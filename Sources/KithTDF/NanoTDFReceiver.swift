/// Where a transport hands the NanoTDF messages it recognised by their magic (`4C 31 4C`, or
/// `4C 31 4D`) among its binary messages, such as the rendezvous relay's router (docs/TDF.md,
/// "Relay router").
public protocol NanoTDFReceiver: Sendable {
    /// A NanoTDF that parsed; decrypting it (with a one-time pool key, for example) is the receiver's job.
    func received(_ nano: NanoTDF) async
    /// A message that carried the NanoTDF magic but did not parse; it was dropped.
    func rejected(_ error: NanoTDFError) async
}
