import Foundation
import HTTPServer
import Sessions
import TabModel
import Views

extension Layout {
    /// The layouts with UIKit's More list (and the edit list under it): the bottom bar, and the
    /// adaptive layout, whose narrow form is one.
    var hasMoreList: Bool { self != .vertical }
}

extension StageApplication {
    /// `GET /{app}/{layout}/_more/edit`: the edit list, opened through the container
    /// (`willBeginCustomizing`, once until Done).
    func editTabsPage(_ request: Request, _ served: ServedApps, _ appIndex: Int, layout: Layout) throws -> Response {
        let app = served.apps[appIndex]
        guard app.allowsCustomization else { return try errorPage(request, .notFound, .unknownPage, app: app) }
        let now = clock()
        let isLiveRefresh = isLiveRefresh(request)
        let visit = try withVisitor(request, create: true) { session in
            let chrome = ChromeContext(
                language: language(request, &session), app: app, layout: layout, visitorName: session.visitorName,
                currentPath: StageLinks.editTabs(app.id, layout), csrfToken: session.csrfToken,
                display: display(request, &session))
            let container = withCurrentContainer(&session, of: app, at: now) { container in
                if !isLiveRefresh { container.beginCustomizing(at: now, in: layout) }
                return container
            }
            let notice = isLiveRefresh ? nil : session.takeFlash().map { Notice(text: $0.text, isError: $0.isError) }
            return StageContext(
                chrome: chrome, app: app, layout: layout, container: container, content: .editTabs, notice: notice,
                markup: served.markups[appIndex],
                live: liveStage(
                    app.id, revision: (session.revision ?? 0) + 1, presentation: session.presentation, served: served))
        }
        var response = render(visit.result, status: .ok, request: request)
        attachCookie(visit.newSession, to: &response)
        return response
    }

    /// `POST /{app}/{layout}/_more/action`: one step of the edit list (`up`, `down`, `hide`,
    /// `show` with `tab`; `count` repeats a move, as a drag does), `reset`, or `done`. Answered
    /// with the edit list again, or after Done with the More list (bottom) or the selected tab.
    func customizeAction(_ request: Request, _ located: Located) throws -> Response {
        let app = located.served.apps[located.appIndex]
        let layout = located.layout
        let form = try checkedPost(request, app: app, badFormMessage: .unknownAction(""))
        guard layout.hasMoreList, app.allowsCustomization, let step = CustomizationStep(form) else {
            return try errorPage(
                request, .badRequest, .unknownAction(form.values(for: "action").last ?? ""), app: app)
        }
        let now = clock()
        let visit = try withVisitor(request, create: true) { session -> String in
            let isLoggedIn = session.isLoggedIn
            let (refusal, selected) = withCurrentContainer(&session, of: app, at: now) { container in
                (step.apply(to: &container, isLoggedIn: isLoggedIn, at: now, in: layout), container.selectedTabID)
            }
            if let refusal {
                session.flash = FlashMessage(text: UIString.customizationRefused(refusal).localizedText, isError: true)
            }
            guard case .done = step else { return StageLinks.editTabs(app.id, layout) }
            if layout == .adaptive, let selected { return StageLinks.tab(app.id, layout, selected) }
            return StageLinks.more(app.id, layout)
        }
        var response = StageResponses.redirect(to: visit.result)
        attachCookie(visit.newSession, to: &response)
        return response
    }
}

/// One posted step of the edit list.
enum CustomizationStep {
    case move(tabID: String, offset: Int, count: Int)
    case hide(tabID: String, isHidden: Bool)
    case reset
    case done

    /// The most places one post moves a tab: the most tabs an app has.
    static let maximumCount = AppDescription.Limits.tabCount.upperBound

    init?(_ form: QueryItems) {
        let tabID = form["tab"]
        switch form["action"] {
        case "up"?, "down"?:
            guard let tabID else { return nil }
            let count = form["count"].map { Int($0) } ?? 1
            guard let count, (1...Self.maximumCount).contains(count) else { return nil }
            self = .move(tabID: tabID, offset: form["action"] == "up" ? -1 : 1, count: count)
        case "hide"?, "show"?:
            guard let tabID else { return nil }
            self = .hide(tabID: tabID, isHidden: form["action"] == "hide")
        case "reset"?: self = .reset
        case "done"?: self = .done
        default: return nil
        }
    }

    /// Applies the step; the refusal when it changed nothing it was asked to.
    func apply(to container: inout TabContainer, isLoggedIn: Bool, at time: Date, in layout: Layout)
        -> CustomizationRefusal?
    {
        switch self {
        case .move(let tabID, let offset, let count):
            for done in 0..<count {
                if let refusal = container.moveTab(tabID, by: offset, at: time, in: layout) {
                    return done == 0 ? refusal : nil
                }
            }
            return nil
        case .hide(let tabID, let isHidden):
            return container.setTabHidden(tabID, isHidden, isLoggedIn: isLoggedIn, at: time, in: layout)
        case .reset:
            container.resetArrangement(at: time, in: layout)
            return nil
        case .done:
            container.endCustomizing(at: time, in: layout)
            return nil
        }
    }
}
