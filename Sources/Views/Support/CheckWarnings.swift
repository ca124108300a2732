import Colour
import TabModel

/// What `tabstage check` says about a valid app besides "ok": things that draw, but not well.
/// Each is a line `PATH: MESSAGE`, paths as the validator writes them.
public enum CheckWarnings {
    public static func lines(for app: AppDescription) -> [String] {
        tint(app) + titles(app)
    }

    /// A tint too light to be text at 4.5:1 on the lightest backgrounds it meets, without a
    /// `textTint`: the pages use a darker shade of it for text, which the author should know,
    /// with where it shows and how to choose it instead.
    static func tint(_ app: AppDescription) -> [String] {
        let palette = TintPalette(app: app)
        guard app.textTint == nil, palette.text != palette.tint else { return [] }
        let ratio = palette.tint.contrast(with: TintPalette.darkestBackground)
        return [
            "tint: \(palette.tint) has \(RGBColor.ratioText(ratio)) against the bar's selected cell "
                + "(\(TintPalette.darkestBackground)), under the 4.5:1 text needs, so text in the tint shows in "
                + "the darker \(palette.text): links, the selected tab's title, buttons, the More list's current "
                + "row and the event log's chosen filter (icons, the glow and focus rings keep the tint). "
                + "To choose that colour, add \"textTint\": \"#RRGGBB\" (at least 4.5:1 against "
                + "\(TintPalette.darkestBackground))"
        ]
    }

    /// Titles cut in a layout's narrowest cell, per language.
    static func titles(_ app: AppDescription) -> [String] {
        var lines: [String] = []
        for (index, tab) in app.tabs.enumerated() {
            for language in app.languages {
                let title = tab.title.text(in: language)
                for layout in Layout.allCases where !TitleFit.fits(title, in: layout, tabCount: app.tabs.count) {
                    let shown = TitleFit.charactersShown(of: title, in: layout, tabCount: app.tabs.count)
                    let bar = layout == .vertical ? "vertical bar" : "bottom bar"
                    lines.append(
                        "tabs[\(index)] '\(tab.id)'.title.\(language): '\(title)' is cut in the \(bar) "
                            + "(about \(shown) of its \(title.count) characters show); its link carries it whole "
                            + "as tooltip and accessible name")
                }
            }
        }
        return lines
    }
}
