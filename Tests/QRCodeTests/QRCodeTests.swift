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
}
