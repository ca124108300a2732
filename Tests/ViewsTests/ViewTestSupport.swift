import Foundation
import TabModel
import Testing

@testable import Views

let testTime = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

func demo(_ id: String) throws -> AppDescription {
    try #require(BuiltInApps.app(id: id))
}

func text(_ english: String) -> LocalizedText { LocalizedText(en: english, zhHant: english + "（中）") }

/// An app of `count` counter tabs named t1, t2, …
func manyTabApp(_ count: Int) -> AppDescription {
    let tabs = (1...count).map { index in
        TabDescription(
            id: "t\(index)", title: text("Tab \(index)"), icon: .builtIn(.star),
            page: PageDescription(content: .counter(CounterPage(label: text("Count")))))
    }
    return AppDescription(
        id: "many", name: text("Many"), tint: "#00aa11", defaultLayout: .bottom, policies: .seed004, tabs: tabs)
}

func stageHTML(
    _ app: AppDescription, layout: Layout, container: TabContainer, content: StageContent,
    language: PageLanguage = .english, fragment: Bool = false
) -> String {
    let context = StageContext(
        chrome: ChromeContext(language: language, app: app, layout: layout), app: app, layout: layout,
        container: container, content: content)
    return String(decoding: fragment ? StagePage.fragment(context) : StagePage.document(context), as: UTF8.self)
}
