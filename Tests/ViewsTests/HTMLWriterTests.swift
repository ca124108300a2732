import Testing

@testable import Views

@Test func textIsEscapedForBodiesAndAttributes() {
    var html = HTMLWriter()
    html.raw("<p")
    html.attribute("title", "a\"b'c")
    html.raw(">")
    html.text("<script>alert('x') & \"y\"</script> 主頁")
    html.raw("</p>")
    let expected =
        "<p title=\"a&quot;b&#39;c\">&lt;script&gt;alert(&#39;x&#39;) &amp; &quot;y&quot;&lt;/script&gt; 主頁</p>"
    #expect(String(decoding: html.bytes, as: UTF8.self) == expected)
}

@Test func urlComponentsArePercentEncoded() {
    #expect(URLComponentEncoding.encodedString("a b/c?d=e&f") == "a%20b%2Fc%3Fd%3De%26f")
    #expect(URLComponentEncoding.encodedString("主") == "%E4%B8%BB")
    #expect(URLComponentEncoding.encodedString("safe-id_1.2~") == "safe-id_1.2~")
    #expect(URLComponentEncoding.encodedString("\"><script>") == "%22%3E%3Cscript%3E")
}
