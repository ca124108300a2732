import Colour

extension RGBColor {
    /// The seed's tab tint, docs/glow.md's reference colour for the selected state.
    public static let defaultTint = RGBColor(red: 0xFF, green: 0x95, blue: 0x00)
    /// iOS's secondary grey, which reads as "not chosen" beside the tint: the fill of unselected
    /// icons on a light bar, on the stage and from `tabstage icon` alike.
    public static let unselectedGrey = RGBColor(red: 0x8E, green: 0x8E, blue: 0x93)
}

/// Which picture a tab icon gets.
public enum IconState: String, Sendable, CaseIterable {
    /// The gradient glow: tint, white gloss, drop shadow.
    case selected
    /// A flat fill in one colour.
    case unselected
    /// A flat fill in the tint: a selected tab as iOS draws it since iOS 7.
    case tinted
}

/// The device scale of a render: the 80 × 80 pt cell becomes 80s × 80s pixels.
public enum IconScale: Int, Sendable, CaseIterable {
    case x1 = 1
    case x2 = 2
    case x3 = 3
}
