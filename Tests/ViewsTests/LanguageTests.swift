import Foundation
import Testing

@testable import Views

@Test(
    arguments: [
        (nil, "en"),
        ("", "en"),
        ("en-US,en;q=0.9", "en"),
        ("zh-TW,zh;q=0.9,en;q=0.8", "zh-Hant"),
        ("zh-HK", "zh-Hant"),
        ("zh-Hant-TW", "zh-Hant"),
        ("ZH-hant", "zh-Hant"),
        ("zh-CN,zh;q=0.9", "en"),
        ("zh-Hans,zh-TW;q=0.5", "zh-Hant"),
        ("fr, zh-TW;q=0.4, en;q=0.3", "zh-Hant"),
        ("en;q=0.2, zh-TW;q=0.8", "zh-Hant"),
        ("zh-TW;q=0, en", "en"),
        ("de, *;q=0.1", "en"),
        // How a header is read: empty parts, spaces and tabs, Q in either case, the last q wins.
        (",, en;Q=0.2 ,\tzh-tw ; q=0.5", "zh-Hant"),
        ("zh-TW;;q=0.4, en;q=0.3", "zh-Hant"),
        ("zh-TW;q=0.9;q=0, en;q=0.1", "en"),
        ("zh-TW;q=nan, en;q=abc, zh-HK;q=0.01", "zh-Hant"),
        ("zh--Hant", "zh-Hant"),
        ("-, zh-Hant-", "zh-Hant"),
        ("zh-Hans-TW", "en"),
    ] as [(String?, String)])
func acceptLanguageChoosesTheBestOfTabStagesLanguages(header: String?, expected: String) {
    #expect(PageLanguage.negotiate(acceptLanguage: header, among: UILanguage.tags) == expected)
}

@Test(
    arguments: [
        (nil, "fr"),
        ("de, *;q=0.1", "fr"),
        ("en-US", "en-GB"),
        ("en-GB;q=0.5, fr-CA", "fr"),
        ("pt-BR, en;q=0.5", "pt-BR"),
        ("pt", "pt-BR"),
        ("zh-TW", "fr"),
    ] as [(String?, String)])
func acceptLanguageChoosesAmongTheAppsLanguagesAndElseItsFirst(header: String?, expected: String) {
    #expect(PageLanguage.negotiate(acceptLanguage: header, among: ["fr", "en-GB", "pt-BR"]) == expected)
}

@Test func theLabelsAreInTheNearestLanguageTabStageIsWrittenInElseEnglish() {
    #expect(PageLanguage(tag: "fr").labels == .english)
    #expect(PageLanguage(tag: "zh-TW").labels == .traditionalChinese)
    #expect(PageLanguage(tag: "zh-Hans").labels == .english)
    #expect(PageLanguage(tag: "en-GB").labels == .english)
    #expect(PageLanguage(tag: "zh-Hant") == .traditionalChinese)
}

@Test func langParameterAcceptsOnlyThePagesTags() {
    #expect(PageLanguage.tag("zh-hant", among: UILanguage.tags) == "zh-Hant")
    #expect(PageLanguage.tag("en", among: UILanguage.tags) == "en")
    #expect(PageLanguage.tag("zh-TW", among: UILanguage.tags) == nil)
    #expect(PageLanguage.tag("", among: UILanguage.tags) == nil)
    #expect(PageLanguage.tag("FR", among: ["fr"]) == "fr")
}

@Test func eventTimesAreUTCInISOFormat() {
    #expect(EventTimeFormat.string(testTime) == "2026-01-01T00:00:00Z")
    #expect(EventTimeFormat.string(.init(timeIntervalSince1970: 951_827_696)) == "2000-02-29T12:34:56Z")
    #expect(EventTimeFormat.string(.init(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
}
