import TabModel

/// The live part of a stage view (see docs/live.md): the version a live page compares with the
/// stream's, and who is looking: the visitor (offered to present), a presenter (shown the
/// follow link, its QR code), or a follower (the bar and page inert under a banner).
public struct LiveStage: Sendable, Equatable {
    public enum Role: Sendable, Equatable {
        case visitor
        case presenting(code: String, followers: Int, link: FollowLink)
        case following(code: String)
    }

    public var version: LiveVersion
    public var role: Role
    /// Whether the visitor records a test (their panel offers "Record a test" or "Stop").
    public var recording: RecordingStatus

    public init(version: LiveVersion, role: Role, recording: RecordingStatus = .off) {
        self.version = version
        self.role = role
        self.recording = recording
    }

    var isFollowing: Bool {
        if case .following = role { return true }
        return false
    }
}

/// What a live page was drawn from: the session's revision and the app's generation, written
/// `REVISION-GENERATION` (the page's `data-version`, the stream's event ids).
public struct LiveVersion: Sendable, Equatable, CustomStringConvertible {
    public var revision: UInt64
    public var generation: UInt64

    public init(revision: UInt64, generation: UInt64) {
        self.revision = revision
        self.generation = generation
    }

    public var description: String { "\(revision)-\(generation)" }

    /// The same digits, written into the page without a String between.
    func write(into html: inout HTMLWriter) {
        html.number(revision)
        html.raw("-")
        html.number(generation)
    }
}

enum LiveStageView {
    /// ` data-version="REVISION-GENERATION"` on a live page's stage.
    static func versionAttribute(_ context: StageContext, into html: inout HTMLWriter) {
        guard let live = context.live else { return }
        html.openAttribute("data-version")
        live.version.write(into: &html)
        html.closeAttribute()
    }

    /// Opens the part of the stage a follower cannot use. The script makes it `inert` (the Nu
    /// checker does not know the attribute yet); without the script the stylesheet takes the
    /// pointer off it, and its forms carry no token, so a post is refused.
    static func openInert(_ context: StageContext, into html: inout HTMLWriter) {
        guard context.live?.isFollowing == true else { return }
        html.raw("<div class=\"follow-inert\" data-inert>\n")
    }

    static func closeInert(_ context: StageContext, into html: inout HTMLWriter) {
        guard context.live?.isFollowing == true else { return }
        html.raw("</div>\n")
    }

    /// The follower's banner, at the top of the page area: leave (with a copy of what is shown)
    /// or refresh (the way to follow without JavaScript).
    static func banner(_ context: StageContext, into html: inout HTMLWriter) {
        guard case .following(let code) = context.live?.role else { return }
        let language = context.language
        html.raw("<div class=\"follow-banner\" role=\"status\"><p>")
        html.text(UIString.followingBanner.text(in: language))
        html.raw("</p><form method=\"post\"")
        html.attribute("action", StageLinks.leave(context.app.id, code))
        html.raw(">")
        CSRFField.render(context.chrome.csrfToken, into: &html)
        html.raw("<button type=\"submit\" aria-describedby=\"follow-leave-note\">")
        html.text(UIString.leaveButton.text(in: language))
        html.raw("</button> <small id=\"follow-leave-note\" class=\"follow-leave-note\">")
        html.text(UIString.leaveExplanation.text(in: language))
        html.raw("</small></form> <a class=\"follow-refresh\"")
        html.attribute("href", StageLinks.follow(context.app.id, code))
        html.raw(">")
        html.text(UIString.refreshLink.text(in: language))
        html.raw("</a></div>\n")
    }

    /// The offer to present, or the follow link and audience while presenting, and the page's
    /// reset: the page's chrome, drawn after the device (never inside its screen) and not in a
    /// stage's frame, whose stage draws its own.
    static func panel(_ context: StageContext, into html: inout HTMLWriter) {
        guard let live = context.live, !context.chrome.display.isEmbedded else { return }
        switch live.role {
        case .following:
            return
        case .visitor:
            if let markup = context.markup, let language = context.markupLanguage {
                html.prewritten(markup.panelOpening(layout: context.layout, language: language), of: markup)
                CSRFField.render(context.chrome.csrfToken, into: &html)
                html.prewritten(markup.presentFormClosing(language: language), of: markup)
            } else {
                openPanel(language: context.language, into: &html)
                panel(
                    live, appID: context.app.id, layout: context.layout, returnTo: nil, language: context.language,
                    csrfToken: context.chrome.csrfToken, into: &html)
            }
            closePanel(context, into: &html)
        case .presenting:
            openPanel(language: context.language, into: &html)
            panel(
                live, appID: context.app.id, layout: context.layout, returnTo: nil, language: context.language,
                csrfToken: context.chrome.csrfToken, into: &html)
            closePanel(context, into: &html)
        }
    }

    /// The page's reset, when the page on screen has one, and the panel's end.
    private static func closePanel(_ context: StageContext, into html: inout HTMLWriter) {
        if let live = context.live {
            RecordPanelView.render(
                live, appID: context.app.id, returnPath: context.chrome.currentPath, language: context.language,
                csrfToken: context.chrome.csrfToken, markup: context.markup, into: &html)
        }
        if let tab = PageView.resettableTab(context) { PageView.resetForm(tab, context, into: &html) }
        html.raw("</aside>\n")
    }

    /// The panel's landmark, `#presenter` (a live page swaps it with the stage); `</aside>` ends it.
    static func openPanel(language: PageLanguage, into html: inout HTMLWriter) {
        html.raw("<aside class=\"presenter-panel\" id=\"presenter\"")
        html.attribute("aria-label", UIString.presenterPanel.text(in: language))
        html.raw(">\n")
    }

    /// The panel's contents for `live`: the offer to present in `layout`, or the follow link,
    /// the audience and the stop button. `returnTo` (`stage`) brings the presenter back to the
    /// page the form is on instead of the layout's page.
    static func panel(
        _ live: LiveStage, appID: String, layout: Layout, returnTo: StaticString?, language: PageLanguage,
        csrfToken: String?, into html: inout HTMLWriter
    ) {
        switch live.role {
        case .following:
            return
        case .visitor:
            presentFormOpening(appID: appID, layout: layout, language: language, into: &html)
            CSRFField.render(csrfToken, into: &html)
            returnField(returnTo, into: &html)
            presentFormClosing(language: language, into: &html)
        case .presenting(_, let followers, let link):
            html.raw("<div class=\"live-panel live-presenting\"><p>")
            html.text(UIString.presentingLead.text(in: language))
            html.raw("</p>\n")
            FollowLinkView.render(link, language: language, into: &html)
            html.raw("<p class=\"follower-count\" data-followers>")
            html.text(UIString.followerCount(followers).text(in: language))
            html.raw("</p><form method=\"post\"")
            html.openAttribute("action")
            StageLinks.writeStopPresenting(appID, into: &html)
            html.closeAttribute()
            html.raw(">")
            CSRFField.render(csrfToken, into: &html)
            returnField(returnTo, into: &html)
            html.raw("<button type=\"submit\" class=\"button button-quiet\">")
            html.text(UIString.stopPresenting.text(in: language))
            html.raw("</button></form></div>\n")
        }
    }

    private static func returnField(_ returnTo: StaticString?, into html: inout HTMLWriter) {
        guard let returnTo else { return }
        html.raw("<input type=\"hidden\" name=\"return\" value=\"")
        html.raw(returnTo)
        html.raw("\">")
    }

    /// The visitor's offer to present, up to the form's CSRF field.
    static func presentFormOpening(appID: String, layout: Layout, language: PageLanguage, into html: inout HTMLWriter) {
        html.raw("<div class=\"live-panel\"><p>")
        html.text(UIString.presentLead.text(in: language))
        html.raw("</p><form method=\"post\"")
        html.openAttribute("action")
        StageLinks.writePresent(appID, into: &html)
        html.closeAttribute()
        html.raw("><input type=\"hidden\" name=\"layout\"")
        html.attribute("value", layout.rawValue)
        html.raw(">")
    }

    /// The offer's button, after the CSRF field, and the panel's end.
    static func presentFormClosing(language: PageLanguage, into html: inout HTMLWriter) {
        html.raw("<button type=\"submit\" class=\"button button-quiet\">")
        html.text(UIString.presentButton.text(in: language))
        html.raw("</button></form></div>\n")
    }
}
