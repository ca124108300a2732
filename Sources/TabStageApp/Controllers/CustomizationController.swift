import Foundation
import HTTPServer
import Sessions
import TabModel
import Views

/// The edit list under the More list (and the sidebar's Edit): opening it, and its steps.
struct CustomizationController: Sendable {
    let pages: PageRoutes

    /// Before the app's screens: `_more/edit` and `_more/action` are no tab's item or form.
    func addRoutes(to router: inout Router) {
        let more = "/{app}/{layout}/" + StageLinks.moreSegment
        router.get(
            more + "/" + StageLinks.editSegment,
            pages.page(
                .layout, visiting: .init(creates: .always, showsNotice: true), find: Self.editListShown, editList))
        router.post(more + "/" + StageLinks.actionSegment, pages.form(.layout, badForm: .unknownAction(""), step))
    }

    /// The edit list is the More list's, in an app with tabs to arrange; any other path there
    /// is as unknown as it was before.
    static func editListShown(_ page: PageRequest) -> Result<Void, Refusal> {
        guard page.layout?.hasMoreList == true else { return .failure(.unknownTab(StageLinks.moreSegment)) }
        guard page.app.allowsCustomization else { return .failure(.notFound(.unknownPage)) }
        return .success(())
    }

    /// `GET /{app}/{layout}/_more/edit`: the edit list, opened through the container
    /// (`willBeginCustomizing`, once until Done).
    func editList(_ visit: PageVisit, _: Void, _ session: inout VisitorSession) -> PageAnswer {
        let (now, layout, isLiveRefresh) = (visit.now, visit.layout, visit.page.isLiveRefresh)
        let container = TabSelection.withCurrentContainer(&session, of: visit.app, at: now) { container in
            if !isLiveRefresh { container.beginCustomizing(at: now, in: layout) }
            return container
        }
        return .screen(container, Screen(content: .editTabs, notice: visit.notice))
    }

    /// `POST /{app}/{layout}/_more/action`: one step of the edit list (`up`, `down`, `hide`,
    /// `show` with `tab`; `count` repeats a move, as a drag does), `reset`, or `done`. Answered
    /// with the edit list again, or after Done with the More list (bottom) or the selected tab.
    func step(_ visit: PageVisit, _ form: QueryItems, _ session: inout VisitorSession) -> PageAnswer {
        let (app, layout, now) = (visit.app, visit.layout, visit.now)
        guard layout.hasMoreList, app.allowsCustomization, let step = CustomizationStep(form) else {
            return .refusal(Refusal(.badRequest, .unknownAction(form.values(for: "action").last ?? "")))
        }
        let isLoggedIn = session.isLoggedIn
        let (refusal, selected) = TabSelection.withCurrentContainer(&session, of: app, at: now) { container in
            (step.apply(to: &container, isLoggedIn: isLoggedIn, at: now, in: layout), container.selectedTabID)
        }
        if let refusal {
            session.flash = FlashMessage(
                text: UIString.customizationRefused(refusal).localizedText(alsoIn: app.languages), isError: true)
        }
        guard case .done = step else { return .redirect(StageLinks.editTabs(app.id, layout)) }
        if layout == .adaptive, let selected { return .redirect(StageLinks.tab(app.id, layout, selected)) }
        return .redirect(StageLinks.more(app.id, layout))
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
