import TabModel

// The refusals' texts, in both languages: a table per kind of refusal.
extension UIString {
    /// A page action's refusal, in both languages.
    static func wording(_ refusal: PageActionRefusal, textsIn tag: String) -> Wording {
        switch refusal {
        case .unsupported(let action, let kind):
            ("A \(kind.rawValue) page cannot do '\(action)'", "\(kind.rawValue) 頁面不支援「\(action)」")
        case .counterAtMaximum(let maximum): ("Already at the maximum of \(maximum)", "已達上限 \(maximum)")
        case .counterAtMinimum: ("Already at zero", "已經是零")
        case .queryTooLong(let maximum): ("A search is at most \(maximum) characters", "搜尋最多 \(maximum) 個字")
        case .amountMissing: ("Enter an amount", "請輸入金額")
        case .amountNotWholeNumber(let text): ("'\(text)' is not a whole number", "「\(text)」不是整數")
        case .amountNotPositive: ("The amount must be more than 0", "金額必須大於 0")
        case .amountOverCap(let cap): ("At most \(cap) per top-up", "每次最多儲值 \(cap)")
        case .balanceWouldExceed(let maximum): ("The balance may not exceed \(maximum)", "餘額不可超過 \(maximum)")
        case .unknownItem(let itemID): ("There is no item '\(itemID)'", "沒有項目「\(itemID)」")
        case .nicknameEmpty: ("Enter a nickname", "請輸入暱稱")
        case .nicknameTooLong(let maximum): ("A nickname is at most \(maximum) characters", "暱稱最多 \(maximum) 個字")
        case .needsLogin(let title):
            ("Log in to see \(title.text(in: tag))", "請先登入以查看\(title.text(in: tag))")
        case .unknownTab(let tabID): ("There is no tab '\(tabID)'", "沒有分頁「\(tabID)」")
        }
    }
}

extension UIString {
    /// A customization's refusal, in both languages.
    static func wording(_ refusal: CustomizationRefusal) -> Wording {
        switch refusal {
        case .unknownTab(let id): ("There is no tab '\(id)'.", "沒有「\(id)」這個分頁。")
        case .notMovable(let id): ("The tab '\(id)' cannot be moved.", "「\(id)」分頁不能移動。")
        case .noPlaceToMove(let id): ("The tab '\(id)' cannot move further.", "「\(id)」分頁不能再移動了。")
        case .notHideable(let id): ("The tab '\(id)' cannot be hidden.", "「\(id)」分頁不能隱藏。")
        case .lastSelectableTab(let id):
            ("Hiding '\(id)' would leave no tab to show.", "隱藏「\(id)」後就沒有可顯示的分頁了。")
        }
    }
}
