import Testing

@testable import TabModel

@Suite struct PageActionTests {
    let wallet = PageDescription(content: .wallet(WalletPage(currency: "TWD", balance: 100, topUpCap: 500)))

    @Test func topUpAddsAValidAmount() {
        let start = wallet.initialState
        #expect(wallet.apply(.topUp(amount: " 250 "), to: start) == .success(.wallet(balance: 350, lastTopUp: 250)))
        #expect(wallet.apply(.topUp(amount: "500"), to: start) == .success(.wallet(balance: 600, lastTopUp: 500)))
    }

    @Test(arguments: [
        ("", PageActionRefusal.amountMissing),
        ("12.5", .amountNotWholeNumber("12.5")),
        ("ten", .amountNotWholeNumber("ten")),
        ("0", .amountNotPositive),
        ("-5", .amountNotPositive),
        ("501", .amountOverCap(500)),
        ("99999999999999999999999", .amountOverCap(500)),
    ])
    func topUpRefusesBadAmounts(typed: String, refusal: PageActionRefusal) {
        #expect(wallet.apply(.topUp(amount: typed), to: wallet.initialState) == .failure(refusal))
    }

    @Test func topUpCannotPassTheMaximumBalance() {
        let nearlyFull = PageState.wallet(balance: WalletPage.maximumBalance - 10, lastTopUp: nil)
        #expect(
            wallet.apply(.topUp(amount: "11"), to: nearlyFull)
                == .failure(.balanceWouldExceed(WalletPage.maximumBalance)))
    }

    @Test func searchFiltersInEveryLanguage() {
        let items = [
            PageItem(id: "a", title: LocalizedText(en: "Noodle Bar", zhHant: "麵館"), detail: text("near")),
            PageItem(id: "b", title: LocalizedText(en: "Tea House", zhHant: "茶館"), detail: text("far")),
        ]
        let page = PageDescription(content: .search(placeholder: nil, items: items))
        #expect(page.searchResults(for: "  ").map(\.id) == ["a", "b"])
        #expect(page.searchResults(for: "NOODLE").map(\.id) == ["a"])
        #expect(page.searchResults(for: "茶").map(\.id) == ["b"])
        #expect(page.searchResults(for: "館").map(\.id) == ["a", "b"])
        #expect(page.apply(.setQuery("tea"), to: page.initialState) == .success(.search(query: "tea")))
        let long = String(repeating: "x", count: PageDescription.maximumQueryLength + 1)
        #expect(page.apply(.setQuery(long), to: page.initialState) == .failure(.queryTooLong(maximum: 100)))
    }

    @Test func checklistAndSettingsToggleKnownItemsOnly() {
        let items = [PageItem(id: "a", title: text("A"), initiallyOn: true), PageItem(id: "b", title: text("B"))]
        let checklist = PageDescription(content: .checklist(items: items))
        #expect(checklist.initialState == .checklist(checkedItemIDs: ["a"]))
        #expect(
            checklist.apply(.toggle(itemID: "b"), to: checklist.initialState)
                == .success(.checklist(checkedItemIDs: ["a", "b"])))
        #expect(
            checklist.apply(.toggle(itemID: "a"), to: checklist.initialState)
                == .success(.checklist(checkedItemIDs: [])))
        #expect(checklist.apply(.toggle(itemID: "c"), to: checklist.initialState) == .failure(.unknownItem("c")))
        let settings = PageDescription(content: .settings(toggles: items))
        #expect(
            settings.apply(.toggle(itemID: "b"), to: settings.initialState)
                == .success(.settings(enabledToggleIDs: ["a", "b"])))
    }

    @Test func counterStaysWithinItsBounds() {
        let page = PageDescription(content: .counter(CounterPage(label: text("n"), start: 1, maximum: 2)))
        #expect(page.apply(.increment, to: .counter(count: 1)) == .success(.counter(count: 2)))
        #expect(page.apply(.increment, to: .counter(count: 2)) == .failure(.counterAtMaximum(2)))
        #expect(page.apply(.decrement, to: .counter(count: 0)) == .failure(.counterAtMinimum))
        #expect(page.apply(.reset, to: .counter(count: 2)) == .success(.counter(count: 1)))
    }

    @Test func profileNicknameIsValidated() {
        let page = PageDescription(content: .profile)
        #expect(page.apply(.setNickname(" Mei "), to: page.initialState) == .success(.profile(nickname: "Mei")))
        #expect(page.apply(.setNickname("   "), to: page.initialState) == .failure(.nicknameEmpty))
        let long = String(repeating: "n", count: 31)
        #expect(page.apply(.setNickname(long), to: page.initialState) == .failure(.nicknameTooLong(maximum: 30)))
    }

    @Test func textPagesAcceptNoActions() {
        let page = PageDescription(content: .text)
        #expect(page.apply(.increment, to: .text) == .failure(.unsupported(action: "increment", kind: .text)))
    }

    @Test func resetReturnsAnyPageToItsInitialState() {
        let page = PageDescription(
            content: .checklist(items: [
                PageItem(id: "a", title: text("A"), initiallyOn: true), PageItem(id: "b", title: text("B")),
            ]))
        #expect(
            page.apply(.reset, to: .checklist(checkedItemIDs: ["b"])) == .success(.checklist(checkedItemIDs: ["a"])))
    }

    @Test func refusalsAreReasonsTheLogDescribesTersely() {
        #expect(PageActionRefusal.amountOverCap(500).description == "amount over the cap 500")
    }
}
