import TabModel

/// The edit list (UIKit's More → Edit, iOS 18's sidebar Edit): every tab in the visitor's order,
/// grouped as the sidebar groups them, each row with Move up, Move down and Hide or Show when the
/// tab allows it, then Reset and Done. Every button is a form of its own, so the list works
/// without the script; with it, rows can also be dragged (the same moves, posted).
enum EditTabsView {
    static func render(_ context: StageContext, into html: inout HTMLWriter) {
        let language = context.language
        PageParts.paragraph(UIString.editTabsLead.text(in: language), className: "lead", into: &html)
        let arrangement = context.container.arrangement
        let bar = context.container.bottomBar()
        var group: Int?? = .none
        for position in arrangement.order {
            let section = context.app.sectionIndex(ofTabAt: position)
            if group != .some(section) {
                if group != nil { html.raw("</ol>\n") }
                if let section {
                    html.raw("<h2>")
                    html.text(context.app.sections[section].title.text(in: language.tag))
                    html.raw("</h2>\n")
                }
                html.raw("<ol class=\"edit-list\">\n")
                group = .some(section)
            }
            let slot = bar.positions.firstIndex(of: position)
            row(
                position, place: slot.map { $0 < bar.tabsShown ? .inTheBar : .inMore } ?? .hiddenTab, context,
                into: &html)
        }
        if group != nil { html.raw("</ol>\n") }
        html.raw("<div class=\"edit-actions\">\n")
        PageParts.actionButton(
            context, tabID: StageLinks.moreSegment, action: "reset", label: UIString.resetTabOrder.text(in: language),
            quiet: true, into: &html)
        PageParts.actionButton(
            context, tabID: StageLinks.moreSegment, action: "done", label: UIString.doneEditing.text(in: language),
            into: &html)
        html.raw("</div>\n")
    }

    /// One tab's row: its title and place, and the buttons the rules allow.
    private static func row(_ position: Int, place: UIString, _ context: StageContext, into html: inout HTMLWriter) {
        let tab = context.app.tabs[position]
        let language = context.language
        let title = tab.title.text(in: language.tag)
        html.raw("<li class=\"edit-row\"")
        html.attribute("data-tab", tab.id)
        if context.app.isCustomizable(at: position) { html.raw(" data-movable") }
        if context.container.arrangement.isHidden(position) { html.raw(" data-hidden") }
        html.raw("><span class=\"edit-title\">")
        html.text(title)
        html.raw("</span> <span class=\"meta\">")
        html.text(place.text(in: language))
        html.raw("</span>\n")
        PageParts.openActionForm(context, tabID: StageLinks.moreSegment, action: nil, into: &html)
        html.raw("<input type=\"hidden\" name=\"tab\"")
        html.attribute("value", tab.id)
        html.raw(">")
        if context.app.isCustomizable(at: position) {
            let canMoveUp = context.container.canMoveTab(tab.id, by: -1)
            let canMoveDown = context.container.canMoveTab(tab.id, by: 1)
            button("up", .moveUp, title: title, enabled: canMoveUp, language: language, into: &html)
            button("down", .moveDown, title: title, enabled: canMoveDown, language: language, into: &html)
        }
        if tab.allowsHiding {
            // The adaptive layout hides tabs from its sidebar only, as iPadOS does: its narrow form
            // (the iPhone's More → Edit) draws no Hide or Show (the stylesheet's `sidebar-only`).
            let isHidden = context.container.arrangement.isHidden(position)
            button(
                isHidden ? "show" : "hide", isHidden ? .showTab : .hideTab, title: title, enabled: true,
                sidebarOnly: context.layout == .adaptive, language: language, into: &html)
        }
        html.raw("</form></li>\n")
    }

    /// A submit button posting `action`; screen readers hear the tab it acts on.
    private static func button(
        _ action: StaticString, _ label: UIString, title: String, enabled: Bool, sidebarOnly: Bool = false,
        language: PageLanguage, into html: inout HTMLWriter
    ) {
        html.raw(
            sidebarOnly
                ? "<button type=\"submit\" class=\"button-quiet sidebar-only\" name=\"action\""
                : "<button type=\"submit\" class=\"button-quiet\" name=\"action\"")
        html.openAttribute("value")
        html.raw(action)
        html.closeAttribute()
        html.openAttribute("data-action")
        html.raw(action)
        html.closeAttribute()
        if !enabled { html.raw(" disabled") }
        html.raw(">")
        html.text(label.text(in: language))
        html.raw("<span class=\"visually-hidden\">: ")
        html.text(title)
        html.raw("</span></button>")
    }
}
