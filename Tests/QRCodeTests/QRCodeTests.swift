import Testing

@testable import QRCode

@Suite struct QRCodeTests {
    /// A finder pattern: a dark 7 × 7 ring, a light ring inside, a dark 3 × 3 centre.
    func hasFinder(_ code: QRCode, atX left: Int, y top: Int) -> Bool {
        (0..<7).allSatisfy { y in
            (0..<7).allSatisfy { x in
                let ring = max(abs(x - 3), abs(y - 3))
                return code.isDark(x: left + x, y: top + y) == (ring != 2)
            }
        }
    }

    @Test func aFollowLinkIsAVersionFiveCodeWithItsThreeFinders() throws {
        let code = try #require(QRCode("http://192.168.1.20:8080/restaurant/follow/0123456789abcdef0123456789abcdef"))
        // 72 bytes at medium correction: version 5, 37 modules a side.
        #expect(code.size == 37)
        #expect(code.modules.count == 37 * 37)
        #expect(hasFinder(code, atX: 0, y: 0))
        #expect(hasFinder(code, atX: 30, y: 0))
        #expect(hasFinder(code, atX: 0, y: 30))
        #expect(!hasFinder(code, atX: 30, y: 30))
    }

    @Test func aTextTooLongForAnyVersionHasNoCode() {
        #expect(QRCode(String(repeating: "x", count: 4000)) == nil)
        #expect(QRCode("a")?.size == 21)
    }

    /// libqrencode is loaded when a code is first asked for, not linked: the binary `make dist`
    /// builds runs where the library is missing, and draws the link without its code.
    @Test func withoutTheLibraryThereIsNoCodeAndTheReasonNamesWhatWasSought() {
        let missing = QRCodeLibrary.load(from: ["/nonexistent/libqrencode.so.4", "libqrencode-none.so.9"])
        #expect(missing.library == nil)
        #expect(missing.problem?.contains("/nonexistent/libqrencode.so.4") == true)
        #expect(missing.problem?.contains("libqrencode4") == true, "says which package to install")
        #expect(QRCode("a", from: missing.library) == nil)
    }

    @Test func theSystemsLibraryIsFoundByItsName() throws {
        let found = QRCodeLibrary.load(from: ["libqrencode.so.4"])
        let library = try #require(found.library, "\(found.problem ?? "")")
        #expect(QRCode("a", from: library)?.size == 21)
    }
}
