import TabModel

/// Every piece of interface text, in one table: the app's own texts come from its description,
/// everything the pages add comes from here.
public enum UIString: Sendable, Equatable {
    case brand
    case appList
    case appListLead
    case tabCount(Int)
    case verticalLayout
    case bottomLayout
    case adaptiveLayout
    case editTabs
    case editTabsTitle
    case editTabsLead
    case moveUp
    case moveDown
    case hideTab
    case showTab
    case resetTabOrder
    case doneEditing
    case hiddenTab
    case inTheBar
    case inMore
    case customizationRefused(CustomizationRefusal)
    /// A hidden tab asked for by its URL: the tab's title.
    case hiddenTabNotOpened(LocalizedText)
    case layoutNavigation
    case languageNavigation
    case tabsNavigation
    case loggedInAs(String)
    case logIn
    case logOut
    case eventLog
    case skipToApp
    case eventLogOf(String)
    case eventLogEmpty
    case eventLogDropped(Int)
    case eventSequence
    case eventTime
    case eventLayout
    case eventDescription
    case eventsAsJSON
    case eventTab
    case eventsDownload
    case eventFilterNavigation
    case eventCategory(EventCategory?)
    case eventLogNewestFirst
    case eventLogEmptyCategory
    case resetDemo
    case resetDemoButton
    case resetDemoQuestion
    case resetDemoExplanation(String)
    case unreadSuffix
    case badgeSeparator
    case badgeCounting(String)
    case more
    case moreLead
    case checked
    case unchecked
    case switchedOn
    case switchedOff
    case loginRequired
    case back
    case backTo(String)
    case selectionRefused(SelectionRefusal, tabTitle: LocalizedText)
    case pageActionRefused(PageActionRefusal)
    case requiresLogin
    case cancel
    case loginLead
    case loginNameLabel
    case loginNameProblem(maximum: Int)
    case loggedOut
    case increment
    case decrement
    case reset
    case searchLabel
    case searchButton
    case searchResults(Int)
    case searchNoResults
    case balance
    case topUpLabelIn(String)
    case itemSeparator
    case topUpButton
    case toppedUp(String)
    case markRead
    case markAllRead
    case read
    case unreadCount(Int)
    case allRead
    case profileName(String)
    case nicknameLabel
    case nicknameCurrent(String)
    case nicknameNone
    case saveButton
    case notFoundTitle
    case badRequestTitle
    case forbiddenTitle
    case errorTitle
    case backHome
    case unknownApp(String)
    case unknownTab(String)
    case unknownLayout(String)
    case unknownPage
    case unknownAction(String)
    case iconGallery
    case iconGalleryLead
    case iconColumn
    case selectedState
    case unselectedState
    case tintedState
    case headerMenu
    case iconDescription(name: String, state: String, scale: Int)
    case appIconsLead
    case presentLead
    case presentButton
    case presentingLead
    case followerCount(Int)
    case stopPresenting
    case copyLink
    case linkCopied
    case followQRCode
    case followingBanner
    case leaveButton
    case leaveExplanation
    case refreshLink
    case presentationEnded
    case presentationEndedTitle
    case stage
    case stageOf(String)
    case stageLead
    case phoneFrame
    case tabletFrame
    case timeline
    case timelineLead
    case timelineEmpty
    case timelineRefresh
    case timelineContainment
    case timelineHide
    case deviceSwitch
    case phoneName
    case tabletName
    case presenterPanel
    case resetPage
    case appearanceNavigation
    case appearanceName(Appearance)
    case openStage
    case loadedFrom(String)
    case builtInApp

    /// A text in both languages, English first and Traditional Chinese second.
    typealias Wording = (english: String, chinese: String)

    /// The text in the page's label language, any app text it holds in the page's own language.
    public func text(in language: PageLanguage) -> String {
        let wording = wording(textsIn: language.tag)
        return language.labels == .english ? wording.english : wording.chinese
    }

    /// English first, Traditional Chinese second, side by side so a missing one shows; app texts
    /// in them (a tab's title) are in `tag`. Each area's texts are a table of their own; this
    /// switch names every case once, so the compiler finds a text that belongs to no table.
    private func wording(textsIn tag: String) -> Wording {
        switch self {
        case .brand, .appList, .appListLead, .tabCount, .verticalLayout, .bottomLayout, .adaptiveLayout,
            .layoutNavigation, .languageNavigation, .tabsNavigation, .loggedInAs, .logIn, .logOut,
            .skipToApp, .headerMenu, .appearanceNavigation, .appearanceName, .openStage,
            .loadedFrom, .builtInApp:
            chromeWording
        case .editTabs, .editTabsTitle, .editTabsLead, .moveUp, .moveDown, .hideTab, .showTab,
            .resetTabOrder, .doneEditing, .hiddenTab, .inTheBar, .inMore, .customizationRefused, .hiddenTabNotOpened:
            editingWording(textsIn: tag)
        case .eventLog, .eventLogOf, .eventLogEmpty, .eventLogDropped, .eventSequence, .eventTime,
            .eventLayout, .eventDescription, .eventsAsJSON, .eventTab, .eventsDownload, .eventFilterNavigation,
            .eventCategory,
            .eventLogNewestFirst, .eventLogEmptyCategory, .resetDemo, .resetDemoButton, .resetDemoQuestion,
            .resetDemoExplanation:
            eventLogWording
        case .unreadSuffix, .badgeSeparator, .badgeCounting, .more, .moreLead, .loginRequired, .back,
            .backTo, .requiresLogin, .cancel, .loginLead, .loginNameLabel, .loginNameProblem, .loggedOut:
            barWording
        case .checked, .unchecked, .switchedOn, .switchedOff, .increment, .decrement, .reset, .searchLabel,
            .searchButton, .searchResults, .searchNoResults, .balance, .topUpLabelIn, .itemSeparator,
            .topUpButton, .toppedUp, .markRead, .markAllRead, .read, .unreadCount, .allRead, .profileName,
            .nicknameLabel, .nicknameCurrent, .nicknameNone, .saveButton:
            pageWording
        case .selectionRefused, .pageActionRefused, .notFoundTitle, .badRequestTitle, .forbiddenTitle,
            .errorTitle, .backHome, .unknownApp, .unknownTab, .unknownLayout, .unknownPage, .unknownAction:
            errorWording(textsIn: tag)
        case .iconGallery, .iconGalleryLead, .iconColumn, .selectedState, .unselectedState, .tintedState,
            .iconDescription, .appIconsLead:
            iconWording
        case .presentLead, .presentButton, .presentingLead, .followerCount, .stopPresenting, .copyLink, .linkCopied,
            .followQRCode,
            .followingBanner, .leaveButton, .leaveExplanation, .refreshLink, .presentationEnded,
            .presentationEndedTitle,
            .stage, .stageOf, .stageLead, .phoneFrame, .tabletFrame, .timeline, .timelineLead,
            .timelineEmpty, .timelineRefresh, .timelineContainment, .timelineHide, .deviceSwitch, .phoneName,
            .tabletName, .presenterPanel, .resetPage:
            stageWording
        }
    }

    /// The start page, the header and its menus.
    private var chromeWording: Wording {
        switch self {
        case .brand: ("TabStage", "TabStage")
        case .appList: ("Apps", "應用程式")
        case .appListLead:
            (
                "Each app runs behind a vertical tab bar and a bottom tab bar; both show the same state.",
                "每個應用程式都可用垂直分頁列或底部分頁列瀏覽，兩者顯示同一份狀態。"
            )
        case .tabCount(let count): (count == 1 ? "1 tab" : "\(count) tabs", "\(count) 個分頁")
        case .verticalLayout: ("Vertical", "垂直")
        case .bottomLayout: ("Bottom", "底部")
        case .adaptiveLayout: ("Adaptive", "自適應")
        case .layoutNavigation: ("Layout", "版面")
        case .languageNavigation: ("Language", "語言")
        case .tabsNavigation: ("Tabs", "分頁")
        case .loggedInAs(let name): ("Logged in as \(name)", "已登入：\(name)")
        case .logIn: ("Log in", "登入")
        case .logOut: ("Log out", "登出")
        case .skipToApp: ("Skip to the app", "跳到應用程式")
        case .headerMenu: ("Menu", "選單")
        case .appearanceNavigation: ("Appearance", "外觀")
        case .appearanceName(let appearance):
            switch appearance {
            case .auto: ("Auto", "自動")
            case .light: ("Light", "淺色")
            case .dark: ("Dark", "深色")
            }
        case .openStage: ("Open the stage", "開啟舞台")
        case .loadedFrom(let file): ("Loaded from \(file)", "載入自 \(file)")
        case .builtInApp: ("Built-in demo", "內建示範")
        default: preconditionFailure("\(self) is not in this table")
        }
    }

    /// Editing the bottom bar's tabs (UIKit's More > Edit).
    private func editingWording(textsIn tag: String) -> Wording {
        switch self {
        case .editTabs: ("Edit", "編輯")
        case .editTabsTitle: ("Edit tabs", "編輯分頁")
        case .editTabsLead:
            (
                "Move the tabs you use most into the bar, and hide the ones you do not need.",
                "把最常用的分頁移到分頁列，並隱藏不需要的分頁。"
            )
        case .moveUp: ("Move up", "上移")
        case .moveDown: ("Move down", "下移")
        case .hideTab: ("Hide", "隱藏")
        case .showTab: ("Show", "顯示")
        case .resetTabOrder: ("Reset to the app's order", "還原成應用程式的順序")
        case .doneEditing: ("Done", "完成")
        case .hiddenTab: ("hidden", "已隱藏")
        case .inTheBar: ("In the bar", "分頁列中")
        case .inMore: ("In More", "在「更多」中")
        case .customizationRefused(let refusal): Self.wording(refusal)
        case .hiddenTabNotOpened(let title):
            (
                "\(title.text(in: tag)) is hidden. Show it again from Edit.",
                "「\(title.text(in: tag))」已隱藏，可在「編輯」中重新顯示。"
            )
        default: preconditionFailure("\(self) is not in this table")
        }
    }

    /// The event log and resetting the demo.
    private var eventLogWording: Wording {
        switch self {
        case .eventLog: ("Event log", "事件紀錄")
        case .eventLogOf(let app): ("Event log: \(app)", "事件紀錄：\(app)")
        case .eventLogEmpty: ("Nothing has happened yet in this session.", "這個工作階段還沒有任何事件。")
        case .eventLogDropped(let count):
            ("\(count) older events were dropped.", "已捨棄 \(count) 筆較舊的事件。")
        case .eventSequence: ("#", "#")
        case .eventTime: ("Time (UTC)", "時間（UTC）")
        case .eventLayout: ("Layout", "版面")
        case .eventDescription: ("Event", "事件")
        case .eventsAsJSON: ("As JSON", "JSON 格式")
        case .eventTab: ("Tab", "分頁")
        case .eventsDownload: ("Download (JSON)", "下載（JSON）")
        case .eventFilterNavigation: ("Show events", "顯示事件")
        case .eventCategory(nil): ("All", "全部")
        case .eventCategory(.selection?): ("Selection", "選取")
        case .eventCategory(.lifecycle?): ("Lifecycle", "生命週期")
        case .eventCategory(.page?): ("Page", "頁面")
        case .eventLogNewestFirst: ("Newest first", "最新的在前")
        case .eventLogEmptyCategory: ("No events of this kind yet.", "還沒有這類事件。")
        case .resetDemo: ("Reset demo…", "重設示範…")
        case .resetDemoButton: ("Reset demo", "重設示範")
        case .resetDemoQuestion: ("Reset the demo?", "要重設示範嗎？")
        case .resetDemoExplanation(let app):
            (
                "Every tab of \(app) goes back to how it starts, and its event log is cleared, for you only. "
                    + "Your log-in, language and appearance stay.",
                "\(app) 的每個分頁都回到初始狀態，事件紀錄也會清除，只影響你自己。登入、語言與外觀不變。"
            )
        default: preconditionFailure("\(self) is not in this table")
        }
    }

    /// The tab bar, the More list, navigation stacks and logging in.
    private var barWording: Wording {
        switch self {
        case .unreadSuffix: (" unread", " 則未讀")
        // Between a tab's title and its badge, as a listener hears them.
        case .badgeSeparator: (", ", "，")
        case .badgeCounting(let label): ("\(label): ", "\(label)：")
        case .more: ("More", "更多")
        case .moreLead: ("The tabs that do not fit in the bar.", "分頁列放不下的分頁。")
        case .loginRequired: ("Log in required", "需要登入")
        case .back: ("Back", "返回")
        case .backTo(let title): (" to \(title)", "：\(title)")
        case .requiresLogin: ("(requires login)", "（需要登入）")
        case .cancel: ("Cancel", "取消")
        case .loginLead: ("Any name will do: this is a prototype.", "任何名字都可以：這只是原型。")
        case .loginNameLabel: ("Name", "名字")
        case .loginNameProblem(let maximum):
            ("Enter a name of 1 to \(maximum) characters", "請輸入 1 到 \(maximum) 個字的名字")
        case .loggedOut: ("You are logged out.", "您已登出。")
        default: preconditionFailure("\(self) is not in this table")
        }
    }

    /// The page kinds: lists, switches, counter, search, wallet, news, profile.
    private var pageWording: Wording {
        switch self {
        case .checked: ("Done", "完成")
        case .unchecked: ("To do", "待辦")
        case .switchedOn: ("On", "開")
        case .switchedOff: ("Off", "關")
        case .increment: ("+1", "+1")
        case .decrement: ("−1", "−1")
        case .reset: ("Reset", "重設")
        case .searchLabel: ("Search", "搜尋")
        case .searchButton: ("Search", "搜尋")
        case .searchResults(let count): (count == 1 ? "1 result" : "\(count) results", "\(count) 筆結果")
        case .searchNoResults: ("Nothing matches.", "沒有符合的結果。")
        case .balance: ("Balance", "餘額")
        // Chinese text takes full-width punctuation.
        case .topUpLabelIn(let currency): ("Top-up amount (\(currency))", "儲值金額（\(currency)）")
        case .itemSeparator: (": ", "：")
        case .topUpButton: ("Top up", "儲值")
        case .toppedUp(let amount): ("Topped up \(amount).", "已儲值 \(amount)。")
        case .markRead: ("Mark read", "標為已讀")
        case .markAllRead: ("Mark all read", "全部標為已讀")
        case .read: ("Read", "已讀")
        case .unreadCount(let count): ("\(count) unread", "\(count) 則未讀")
        case .allRead: ("All read.", "全部已讀。")
        case .profileName(let name): ("Member: \(name)", "會員：\(name)")
        case .nicknameLabel: ("Nickname", "暱稱")
        case .nicknameCurrent(let nickname): ("Nickname: \(nickname)", "暱稱：\(nickname)")
        case .nicknameNone: ("No nickname yet.", "尚未設定暱稱。")
        case .saveButton: ("Save", "儲存")
        default: preconditionFailure("\(self) is not in this table")
        }
    }

    /// Error pages and refusals.
    private func errorWording(textsIn tag: String) -> Wording {
        switch self {
        case .selectionRefused(.needsLogin, let title):
            ("Log in to see \(title.text(in: tag))", "請先登入以查看\(title.text(in: tag))")
        case .pageActionRefused(let refusal): Self.wording(refusal, textsIn: tag)
        case .notFoundTitle: ("Page not found", "找不到頁面")
        case .badRequestTitle: ("Bad request", "請求有誤")
        case .forbiddenTitle: ("Not allowed", "不允許")
        case .errorTitle: ("Something went wrong", "發生錯誤")
        case .backHome: ("Back to the app list", "回到應用程式列表")
        case .unknownApp(let id): ("There is no app '\(id)'.", "沒有應用程式「\(id)」。")
        case .unknownTab(let id): ("There is no tab '\(id)'.", "沒有分頁「\(id)」。")
        case .unknownLayout(let name):
            ("'\(name)' is not a layout; use vertical or bottom.", "「\(name)」不是版面，請用 vertical 或 bottom。")
        case .unknownPage: ("Nothing lives at this address.", "這個網址沒有內容。")
        case .unknownAction(let name): ("'\(name)' is not an action of this page.", "「\(name)」不是這個頁面的動作。")
        default: preconditionFailure("\(self) is not in this table")
        }
    }

    /// The icon gallery and an app's icons.
    private var iconWording: Wording {
        switch self {
        case .iconGallery: ("Icons", "圖示")
        case .iconGalleryLead:
            (
                "Every built-in icon as the rasterizer draws it: the 80 × 80 pt cell at 1×, 2× and 3×, "
                    + "unselected, with the selected tab's gradient glow, and tinted.",
                "內建圖示由本專案的點陣化器繪製：80 × 80 pt 的格子，1×、2×、3× 三種倍率，未選取、選取時的漸層光澤與著色。"
            )
        case .iconColumn: ("Icon", "圖示")
        case .selectedState: ("Selected", "已選取")
        case .unselectedState: ("Unselected", "未選取")
        case .tintedState: ("Tinted", "著色")
        case .iconDescription(let name, let state, let scale):
            ("\(name), \(state), \(scale)×", "\(name)，\(state)，\(scale)×")
        case .appIconsLead:
            (
                "Each tab's icon as this app draws it: unselected, and selected in the app's icon style.",
                "此 App 各分頁的圖示：未選取，以及依 App 圖示樣式繪製的選取狀態。"
            )
        default: preconditionFailure("\(self) is not in this table")
        }
    }

    /// The stage, presenting and following.
    private var stageWording: Wording {
        switch self {
        case .presentLead: ("Show this app live to others: they follow every tap.", "即時展示這個應用程式：觀看者會跟著每一次點按。")
        case .presentButton: ("Present", "開始展示")
        case .presentingLead: ("Presenting. Anyone with this link follows along:", "展示中。任何人打開這個連結就能跟著看：")
        case .followerCount(let count):
            (count == 1 ? "1 person following" : "\(count) people following", "\(count) 人觀看中")
        case .stopPresenting: ("Stop presenting", "停止展示")
        case .copyLink: ("Copy link", "複製連結")
        case .linkCopied: ("Link copied", "已複製連結")
        case .followQRCode: ("QR code of the follow link", "觀看連結的 QR 碼")
        case .followingBanner: ("Following — you see what the presenter sees.", "觀看中：你看到的是展示者的畫面。")
        case .leaveButton: ("Explore on your own", "自行探索")
        case .leaveExplanation:
            (
                "You carry on alone from this screen and stop following; the presenter sees no change.",
                "你會從這個畫面開始自行操作並停止跟隨；展示者的畫面不受影響。"
            )
        case .refreshLink: ("Refresh", "重新整理")
        case .presentationEnded:
            ("This presentation has ended, or its link was withdrawn.", "這場展示已結束，或連結已被收回。")
        case .presentationEndedTitle: ("This presentation has ended", "這場展示已結束")
        case .stage: ("Stage", "舞台")
        case .stageOf(let app): ("Stage: \(app)", "舞台：\(app)")
        case .stageLead:
            (
                "One session, two devices: a tap in either shows in both, and the delegate timeline grows beside them.",
                "同一個工作階段、兩台裝置：在任一台點選，兩台都會更新，旁邊的委派時間軸也隨之增加。"
            )
        case .phoneFrame: ("Phone, bottom tab bar", "手機，底部分頁列")
        case .tabletFrame: ("Tablet, vertical tab bar", "平板，垂直分頁列")
        case .timeline: ("Delegate timeline", "委派時間軸")
        case .timelineLead: ("The newest steps are highlighted.", "最新的步驟會醒目標示。")
        case .timelineEmpty: ("Nothing has happened yet: tap a tab.", "還沒有任何事件：點選一個分頁。")
        case .timelineRefresh: ("Refresh the timeline", "重新整理時間軸")
        case .timelineContainment: ("Containment steps", "容器步驟")
        case .timelineHide: ("Hide", "隱藏")
        case .deviceSwitch: ("Device shown", "顯示的裝置")
        case .phoneName: ("Phone", "手機")
        case .tabletName: ("Tablet", "平板")
        case .presenterPanel: ("Live presentation", "即時展示")
        case .resetPage: ("Reset this page", "重設這一頁")
        default: preconditionFailure("\(self) is not in this table")
        }
    }
}

extension UIString {
    /// The string in TabStage's languages and in `appLanguages` (the app's, where the notice
    /// will show), for notices kept in a session between requests.
    public func localizedText(alsoIn appLanguages: [String]) -> LocalizedText {
        var translations: [String: String] = [:]
        for tag in UILanguage.tags + appLanguages { translations[tag] = text(in: PageLanguage(tag: tag)) }
        return LocalizedText(translations)
    }
}

extension UIString {
    /// The layout's name in the header's and the start page's layout links.
    static func layoutName(_ layout: Layout) -> UIString {
        switch layout {
        case .vertical: .verticalLayout
        case .bottom: .bottomLayout
        case .adaptive: .adaptiveLayout
        }
    }
}
