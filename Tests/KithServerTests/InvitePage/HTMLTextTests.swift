import Testing
@testable import KithServer

@Suite("HTML escaping of invite fields")
struct HTMLTextTests {
    @Test("the five markup characters become character references")
    func markup() {
        #expect(HTMLText.escaped(#"<a href="x" title='y'>&</a>"#) == "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;")
        #expect(HTMLText.escaped("&amp;") == "&amp;amp;")
    }

    @Test("non-ASCII text passes through unchanged")
    func nonASCII() {
        #expect(HTMLText.escaped("Café 🎭 читальня 読書会") == "Café 🎭 читальня 読書会")
        #expect(HTMLText.escaped("e\u{301}") == "e\u{301}")
    }

    @Test("controls other than tab and newline become U+FFFD")
    func controls() {
        #expect(HTMLText.escaped("a\u{0}b\u{1B}[31mc\u{7F}\td\n") == "a\u{FFFD}b\u{FFFD}[31mc\u{FFFD}\td\n")
    }

    @Test("a script payload stays text")
    func script() {
        let escaped = HTMLText.escaped("</h1><script>document.title='pwned'</script>")
        #expect(!escaped.contains("<"))
        #expect(escaped == "&lt;/h1&gt;&lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt;")
    }
}
