import KithPushDelivery
import Testing

@Suite("Web Push endpoint policy (SSRF guard)")
struct WebPushEndpointPolicyTests {
    let strict = WebPushEndpointPolicy()

    @Test("public endpoints pass and yield the VAPID origin", arguments: [
        ("https://updates.push.services.mozilla.com/wpush/v2/abc", "https://updates.push.services.mozilla.com"),
        ("https://push.example.com:443/x", "https://push.example.com"),
        ("https://push.example.com:8443/x?y=1", "https://push.example.com:8443"),
        ("HTTP://Push.Example.COM:80/x", "http://push.example.com"),
        ("https://8.8.8.8/x", "https://8.8.8.8"),
        ("https://[2001:4860:4860::8888]:8443/x", "https://[2001:4860:4860::8888]:8443"),
    ])
    func publicEndpoints(url: String, origin: String) throws {
        let endpoint = try strict.check(url)
        #expect(endpoint.origin == origin)
        #expect(endpoint.requestURL.hasPrefix(origin))
    }

    @Test("the request URL is rebuilt from the checked parts")
    func requestURL() throws {
        let endpoint = try strict.check("HTTPS://Push.Example.COM.:8443/wpush/v2/AbC?x=1#f")
        #expect(endpoint.requestURL == "https://push.example.com:8443/wpush/v2/AbC?x=1#f")
        #expect(try strict.check("https://push.example.com").requestURL == "https://push.example.com")
        #expect(try strict.check("https://[2001:db9::1]/p").requestURL == "https://[2001:db9::1]/p")
    }

    @Test("private, loopback, link-local, internal and ambiguous hosts are refused", arguments: [
        "http://127.0.0.1:8080/push/x", "http://10.1.2.3/x", "http://172.16.0.1/x", "http://172.31.255.255/x",
        "http://192.168.1.1/x", "http://169.254.169.254/latest/meta-data", "http://100.64.0.1/x", "http://0.0.0.0/x",
        "http://224.0.0.1/x", "http://255.255.255.255/x", "http://[::1]/x", "http://[::]/x", "http://[fe80::1]/x",
        "http://[fc00::1]/x", "http://[fd12:3456::1]/x", "http://[::ffff:127.0.0.1]/x", "http://[::ffff:10.0.0.1]/x",
        "http://[64:ff9b::a00:1]/x", "http://localhost/x", "http://push.localhost/x", "http://printer.local/x",
        "http://metadata.google.internal/x", "http://router/x", "http://2130706433/x", "http://0x7f.1/x",
        "http://127.1/x", "http://017700000001/x", "http://10.0.0.1./x",
    ])
    func privateHostsRefused(url: String) {
        #expect(throws: WebPushEndpointError.self) { try strict.check(url) }
        do throws(WebPushEndpointError) { _ = try strict.check(url) } catch {
            #expect(error.code == "private_address")
        }
    }

    @Test("malformed, non-http(s) and oversized endpoints are refused", arguments: [
        ("ftp://push.example.com/x", "unsupported_scheme"),
        ("file:///etc/passwd", "unsupported_scheme"),
        ("javascript://push.example.com/x", "unsupported_scheme"),
        ("push.example.com/x", "malformed_endpoint"),
        ("https://user:pw@push.example.com/x", "malformed_endpoint"),
        ("https://push.example.com@10.0.0.1/x", "malformed_endpoint"),
        ("https://push.example.com/x y", "malformed_endpoint"),
        ("https://push.example.com\\@10.0.0.1/x", "malformed_endpoint"),
        ("https://push.exa_mple.com/x", "malformed_endpoint"),
        ("https://push.example.com:0/x", "malformed_endpoint"),
        ("https://push.example.com:65536/x", "malformed_endpoint"),
        ("https://[::1/x", "malformed_endpoint"),
        ("https://[zz::1]/x", "malformed_endpoint"),
        ("https:///x", "malformed_endpoint"),
        ("https://push.example.com/" + String(repeating: "a", count: 980), "endpoint_too_long"),
    ])
    func malformedRefused(url: String, code: String) {
        do throws(WebPushEndpointError) {
            _ = try WebPushEndpointPolicy(allowPrivateAddresses: true).check(url)
            Issue.record("accepted \(url)")
        } catch {
            #expect(error.code == code)
        }
    }

    @Test("allowing private addresses admits loopback; the 1,000-byte limit still applies")
    func allowPrivate() throws {
        let loose = WebPushEndpointPolicy(allowPrivateAddresses: true)
        #expect(try loose.check("http://127.0.0.1:8080/push/x").origin == "http://127.0.0.1:8080")
        #expect(try loose.check("http://[::1]:8080/push/x").origin == "http://[::1]:8080")
        let exactly1000 = "https://push.example.com/" + String(repeating: "a", count: 975)
        #expect(exactly1000.utf8.count == 1000)
        #expect(throws: Never.self) { try strict.check(exactly1000) }
        #expect(WebPushEndpointPolicy().allowPrivateAddresses == false, "refusing is the default")
    }
}
