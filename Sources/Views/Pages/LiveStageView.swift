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

    public init(version: LiveVersion, role: Role) {
        self.version = version
        self.role = role
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
        html.raw("<button type=\"submit\">")
        html.text(UIString.leaveButton.text(in: language))
        html.raw("</button></form> <a class=\"follow-refresh\"")
        html.attribute("href", StageLinks.follow(context.app.id, code))
        html.raw(">")
        html.text(UIString.refreshLink.text(in: language))
        html.raw("</a></div>\n")
    }

    /// The offer to present, or the follow link and audience while presenting, at the end of
    /// the page area.
    static func panel(_ context: StageContext, into html: inout HTMLWriter) {
        guard let live = context.live else { return }
        let language = context.language
        let appID = context.app.id
        switch live.role {
        case .following:
            return
        case .visitor:
            if let markup = context.markup {
                html.prewritten(markup.presentFormOpening(layout: context.layout, language: language), of: markup)
                CSRFField.render(context.chrome.csrfToken, into: &html)
                html.prewritten(markup.presentFormClosing(language: language), of: markup)
            } else {
                presentFormOpening(appID: appID, layout: context.layout, language: language, into: &html)
                CSRFField.render(context.chrome.csrfToken, into: &html)
                presentFormClosing(language: language, into: &html)
            }
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
            CSRFField.render(context.chrome.csrfToken, into: &html)
            html.raw("<button type=\"submit\" class=\"button button-quiet\">")
            html.text(UIString.stopPresenting.text(in: language))
            html.raw("</button></form></div>\n")
        }
    }

    /// The visitor's offer to present, up to the form's CSRF field.
    static func presentFormOpening(appID: String, layout: Layout, language: UILanguage, into html: inout HTMLWriter) {
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
    static func presentFormClosing(language: UILanguage, into html: inout HTMLWriter) {
        html.raw("<button type=\"submit\" class=\"button button-quiet\">")
        html.text(UIString.presentButton.text(in: language))
        html.raw("</button></form></div>\n")
    }
}
