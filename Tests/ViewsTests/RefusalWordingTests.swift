import Testing

@testable import TabModel
@testable import Views

@Suite struct RefusalWordingTests {
    @Test func aPageActionsRefusalIsWordedByTheInterfaceTextTable() {
        let text = UIString.pageActionRefused(.amountOverCap(500))
        #expect(text.text(in: .english) == "At most 500 per top-up")
        #expect(text.text(in: .traditionalChinese) == "每次最多儲值 500")
    }

    @Test func aSelectionRefusalIsWordedWithTheTabsTitle() {
        let title = LocalizedText(en: "Member", zhHant: "會員")
        let text = UIString.selectionRefused(.needsLogin, tabTitle: title)
        #expect(text.text(in: .english) == "Log in to see Member")
        #expect(text.text(in: .traditionalChinese) == "請先登入以查看會員")
    }
}
