import Foundation
import Testing

@testable import Views

@Test(
    arguments: [
        (nil, UILanguage.english),
        ("", .english),
        ("en-US,en;q=0.9", .english),
        ("zh-TW,zh;q=0.9,en;q=0.8", .traditionalChinese),
        ("zh-HK", .traditionalChinese),
        ("zh-Hant-TW", .traditionalChinese),
        ("ZH-hant", .traditionalChinese),
        ("zh-CN,zh;q=0.9", .english),
        ("zh-Hans,zh-TW;q=0.5", .traditionalChinese),
        ("fr, zh-TW;q=0.4, en;q=0.3", .traditionalChinese),
        ("en;q=0.2, zh-TW;q=0.8", .traditionalChinese),
        ("zh-TW;q=0, en", .english),
        ("de, *;q=0.1", .english),
    ] as [(String?, UILanguage)])
func acceptLanguageChoosesTheBestLanguageWeWrite(header: String?, expected: UILanguage) {
    #expect(UILanguage.negotiate(acceptLanguage: header) == expected)
}

@Test func langParameterAcceptsOnlyOurTags() {
    #expect(UILanguage(tag: "zh-hant") == .traditionalChinese)
    #expect(UILanguage(tag: "en") == .english)
    #expect(UILanguage(tag: "zh-TW") == nil)
    #expect(UILanguage(tag: "") == nil)
}

@Test func eventTimesAreUTCInISOFormat() {
    #expect(EventTimeFormat.string(testTime) == "2026-01-01T00:00:00Z")
    #expect(EventTimeFormat.string(.init(timeIntervalSince1970: 951_827_696)) == "2000-02-29T12:34:56Z")
    #expect(EventTimeFormat.string(.init(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
}
