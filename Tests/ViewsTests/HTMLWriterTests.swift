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

/// Escaping writes straight into the buffer, growing it first: each special character at every
/// position of texts of many lengths must come out as a plain escaper's does.
@Test func escapingMatchesACharacterByCharacterEscaper() {
    func reference(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
    // The specials, their neighbours in ASCII (a word test off by one would let them through
    // or stop at them), a pair of specials in one word, and bytes of multibyte UTF-8.
    let texts = [
        "&", "<", ">", "\"", "'", "主", " ", "=", "?", "\u{80}", "%", "(", "!", "#", ";", "0", "9", "~", "&<",
        "'\"",
    ]
    for special in texts {
        for length in 0...25 {
            for position in 0..<max(length, 1) {
                var text = String(repeating: "a", count: length)
                if length > 0 {
                    let index = text.index(text.startIndex, offsetBy: position)
                    text.replaceSubrange(index...index, with: special)
                }
                var html = HTMLWriter(capacity: 16)
                html.text(text)
                html.text(text + "&b")
                #expect(String(decoding: html.bytes, as: UTF8.self) == reference(text) + reference(text + "&b"))
            }
        }
    }
}

@Test func urlComponentsArePercentEncoded() {
    #expect(URLComponentEncoding.encodedString("a b/c?d=e&f") == "a%20b%2Fc%3Fd%3De%26f")
    #expect(URLComponentEncoding.encodedString("主") == "%E4%B8%BB")
    #expect(URLComponentEncoding.encodedString("safe-id_1.2~") == "safe-id_1.2~")
    #expect(URLComponentEncoding.encodedString("\"><script>") == "%22%3E%3Cscript%3E")
}

/// One-digit numbers take a shorter path than the rest: every path must write what `String` does.
@Test func numbersAreWrittenAsStringWritesThem() {
    let values = Array(-12...12) + [99, 100, 101, 4096, 1_000_000, Int.max, Int.min, Int.min + 1]
    for value in values {
        var html = HTMLWriter(capacity: 16)
        html.raw("<")
        html.number(value)
        html.raw(">")
        #expect(String(decoding: html.bytes, as: UTF8.self) == "<\(value)>")
    }
}

/// A writer takes its thread's spare buffer (`SpareBuffer`): what an earlier writer left in it
/// never shows, whatever their sizes, and nested writers each get a buffer of their own.
@Test func writersReusingTheSpareBufferWriteOnlyTheirOwnBytes() {
    let long = String(repeating: "abcdefgh", count: 1500)  // 12,000 bytes: the buffer grows
    for text in [long, "x", String(repeating: "y", count: 9000), "z"] {
        var outer = HTMLWriter()
        outer.text(text)
        var inner = HTMLWriter()
        inner.raw("<b>")
        inner.text("inner")
        #expect(inner.finish() == Array("<b>inner".utf8))
        outer.raw("!")
        #expect(outer.finish() == Array((text + "!").utf8))
    }
}

/// A page given up (`SparePage.keep`) becomes the array of the thread's next page: that page
/// holds only its own bytes, and a page given up while still held elsewhere keeps its bytes.
@Test func pagesFilledFromTheSparePageHoldOnlyTheirOwnBytes() {
    let sizes = [3000, 2000, 4000, 9000, 1500, 50]
    var previous: [UInt8]?
    for (index, size) in sizes.enumerated() {
        let text = String(repeating: Character(UnicodeScalar(UInt8(97 + index))), count: size)
        var writer = HTMLWriter()
        writer.text(text)
        let page = writer.finish()
        #expect(page == Array(text.utf8))
        // The page before, still held here: given up again, it must not be written over.
        if let previous {
            let held = previous
            SparePage.keep(previous)
            var next = HTMLWriter()
            next.text("other")
            #expect(next.finish() == Array("other".utf8))
            #expect(held == previous)
        }
        SparePage.keep(page)
        previous = page
    }
}
