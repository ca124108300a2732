import TabModel

/// Whether a tab's title fits in its bar cell, estimated from its characters (no font is at
/// hand on the server): the bar sets titles in 12 px system text, a CJK character about 1 em
/// wide, a Latin one about 0.58 em, in the narrowest cell a layout draws. A title that does not
/// fit is cut with an ellipsis; its link then carries it whole as a tooltip, and `tabstage
/// check` warns about it.
public enum TitleFit {
    static let fontSize = 12.0
    /// The narrowest bottom bar, a 390 pt phone; its cells share it.
    static let phoneWidth = 390.0
    /// The vertical bar's cell on a phone-sized window: `--bar-width` (Public/css/tabstage.css)
    /// less the bar's 1 px border.
    static let verticalCellWidth = 83.0
    /// The title's inset from each side of its cell.
    static let inset = 2.0

    /// The width the title has in `layout`, for an app of `tabCount` tabs.
    public static func available(in layout: Layout, tabCount: Int) -> Double {
        switch layout {
        case .vertical: verticalCellWidth - 2 * inset
        // At most five cells: four tabs and More beyond five; the adaptive layout is this bar
        // below its breakpoint, its narrowest drawing.
        case .bottom, .adaptive: phoneWidth / Double(max(1, min(tabCount, 5))) - 2 * inset
        }
    }

    /// The title's estimated width in points.
    public static func width(of title: String) -> Double {
        title.unicodeScalars.reduce(0) { total, scalar in
            total + fontSize * (isWide(scalar) ? 1 : scalar == " " ? 0.3 : 0.58)
        }
    }

    public static func fits(_ title: String, in layout: Layout, tabCount: Int) -> Bool {
        width(of: title) <= available(in: layout, tabCount: tabCount)
    }

    /// How many of the title's leading characters show before the ellipsis (about one em).
    public static func charactersShown(of title: String, in layout: Layout, tabCount: Int) -> Int {
        let room = available(in: layout, tabCount: tabCount) - fontSize
        var width = 0.0
        var shown = 0
        for character in title {
            width += Self.width(of: String(character))
            if width > room { break }
            shown += 1
        }
        return shown
    }

    /// CJK ideographs, kana, Hangul and full-width forms: one em each.
    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7A3,
            0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            true
        default: false
        }
    }
}
