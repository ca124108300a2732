/// `/icons`: every built-in icon in both states at 1×, 2× and 3×, as the icon routes serve them.
public enum IconGalleryPage {
    /// - Parameters:
    ///   - names: the built-in icons, in the order shown.
    ///   - tint: the selected state's colour as `RRGGBB`.
    public static func document(names: [String], tint: String, chrome: ChromeContext) -> [UInt8] {
        let language = chrome.language
        let title = UIString.iconGallery.text(in: language)
        return Chrome.document(title: Chrome.title([title], language: language), chrome: chrome) { html in
            html.raw("<main class=\"sheet\">\n<h1>")
            html.text(title)
            html.raw("</h1>\n")
            PageParts.paragraph(UIString.iconGalleryLead.text(in: language), className: "lead", into: &html)
            html.raw("<div class=\"gallery\"><table>\n<thead>\n<tr><th scope=\"col\" rowspan=\"2\">")
            html.text(UIString.iconColumn.text(in: language))
            html.raw("</th>")
            for selected in [false, true] {
                html.raw("<th scope=\"colgroup\" colspan=\"3\">")
                html.text((selected ? UIString.selectedState : .unselectedState).text(in: language))
                html.raw("</th>")
            }
            html.raw("</tr>\n<tr>")
            for _ in 0..<2 {
                for scale in 1...3 {
                    html.raw("<th scope=\"col\">")
                    html.number(scale)
                    html.raw("×</th>")
                }
            }
            html.raw("</tr>\n</thead>\n<tbody>\n")
            for name in names {
                html.raw("<tr><th scope=\"row\">")
                html.text(name)
                html.raw("</th>")
                for selected in [false, true] {
                    for scale in 1...3 {
                        html.raw("<td><img width=\"80\" height=\"80\"")
                        html.attribute(
                            "src", StageLinks.builtInIcon(name, selected: selected, scale: scale, tint: tint))
                        html.attribute(
                            "alt",
                            UIString.iconDescription(name: name, selected: selected, scale: scale).text(in: language))
                        html.raw("></td>")
                    }
                }
                html.raw("</tr>\n")
            }
            html.raw("</tbody>\n</table></div>\n</main>\n")
        }
    }
}
