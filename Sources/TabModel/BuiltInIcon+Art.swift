/// The built-in icons' art, drawn for TabStage: SVG path data on a 24 × 24 grid (all subpaths of
/// a non-zero icon wind clockwise on screen, holes counter-clockwise). It lives with the model so
/// that an icon's URL can carry the version of its art (`artVersion`); IconCatalog parses and
/// draws it.
extension BuiltInIcon {
    public var art: String {
        switch self {
        case .home:
            "M12 3 L21.2 10.6 L19.9 12.1 L19 11.4 V19.8 A1.2 1.2 0 0 1 17.8 21 H14.5 V15.5 A1 1 0 0 0 13.5 14.5 "
                + "H10.5 A1 1 0 0 0 9.5 15.5 V21 H6.2 A1.2 1.2 0 0 1 5 19.8 V11.4 L4.1 12.1 L2.8 10.6 Z"
        case .search:
            "M10.5 3 A7.5 7.5 0 1 1 10.5 18 A7.5 7.5 0 1 1 10.5 3 Z M10.5 5.5 A5 5 0 1 0 10.5 15.5 "
                + "A5 5 0 1 0 10.5 5.5 Z M16.08 14.32 L20.88 19.12 A1.25 1.25 0 0 1 19.12 20.88 L14.32 16.08 Z"
        case .wallet:
            "M5 6 H19 A2 2 0 0 1 21 8 V9.5 H15 A3 3 0 0 0 15 15.5 H21 V17 A2 2 0 0 1 19 19 H5 "
                + "A2 2 0 0 1 3 17 V8 A2 2 0 0 1 5 6 Z M16 11 H21 V14 H16 A1.5 1.5 0 0 1 16 11 Z "
                + "M16.5 11.8 A0.7 0.7 0 0 0 16.5 13.2 A0.7 0.7 0 0 0 16.5 11.8 Z "
                + "M6.5 3.2 H16.5 A1.2 1.2 0 0 1 17.7 4.4 V4.9 H5.3 V4.4 A1.2 1.2 0 0 1 6.5 3.2 Z"
        case .news:
            "M6 3 H18 A2 2 0 0 1 20 5 V19 A2 2 0 0 1 18 21 H6 A2 2 0 0 1 4 19 V5 A2 2 0 0 1 6 3 Z "
                + "M7 6 V11 H11.5 V6 Z M13.5 6 V7.5 H17 V6 Z M13.5 9.5 V11 H17 V9.5 Z M7 13.5 V15 H17 V13.5 Z "
                + "M7 16.8 V18.3 H14 V16.8 Z"
        case .person:
            "M12 3.5 A4.25 4.25 0 1 1 12 12 A4.25 4.25 0 1 1 12 3.5 Z "
                + "M4 20.3 C4 16.4 7.6 13.8 12 13.8 C16.4 13.8 20 16.4 20 20.3 A0.7 0.7 0 0 1 19.3 21 H4.7 "
                + "A0.7 0.7 0 0 1 4 20.3 Z"
        case .inbox:
            "M5.5 4 H18.5 A2.5 2.5 0 0 1 21 6.5 V17.5 A2.5 2.5 0 0 1 18.5 20 H5.5 A2.5 2.5 0 0 1 3 17.5 V6.5 "
                + "A2.5 2.5 0 0 1 5.5 4 Z M5 6.5 V13 H8.5 L9.5 15 H14.5 L15.5 13 H19 V6.5 A0.5 0.5 0 0 0 18.5 6 "
                + "H5.5 A0.5 0.5 0 0 0 5 6.5 Z"
        case .star:
            "M12 3 L14.41 9.48 L21.32 9.77 L15.9 14.07 L17.76 20.73 L12 16.9 L6.24 20.73 L8.1 14.07 L2.68 9.77 "
                + "L9.59 9.48 Z"
        case .settings:
            "M10.03 4.66 L10.35 2.14 L13.65 2.14 L13.97 4.66 L15.8 5.42 L17.81 3.86 L20.14 6.19 L18.58 8.2 "
                + "L19.34 10.03 L21.86 10.35 L21.86 13.65 L19.34 13.97 L18.58 15.8 L20.14 17.81 L17.81 20.14 "
                + "L15.8 18.58 L13.97 19.34 L13.65 21.86 L10.35 21.86 L10.03 19.34 L8.2 18.58 L6.19 20.14 "
                + "L3.86 17.81 L5.42 15.8 L4.66 13.97 L2.14 13.65 L2.14 10.35 L4.66 10.03 L5.42 8.2 L3.86 6.19 "
                + "L6.19 3.86 L8.2 5.42 Z M12 8.6 A3.4 3.4 0 1 0 12 15.4 A3.4 3.4 0 1 0 12 8.6 Z"
        case .bell:
            "M12 2.8 A1.3 1.3 0 0 1 13.3 4.1 V4.4 C16.2 5 18 7.6 18 10.6 V15 L20 17.2 V18.2 H4 V17.2 L6 15 "
                + "V10.6 C6 7.6 7.8 5 10.7 4.4 V4.1 A1.3 1.3 0 0 1 12 2.8 Z M9.8 19.4 H14.2 A2.2 2.2 0 0 1 9.8 19.4 Z"
        case .chart:
            "M5 13.5 A1.5 1.5 0 0 1 8 13.5 V18.5 H5 Z M10.5 8.5 A1.5 1.5 0 0 1 13.5 8.5 V18.5 H10.5 Z "
                + "M16 5.5 A1.5 1.5 0 0 1 19 5.5 V18.5 H16 Z M3.75 19.75 H20.25 A0.75 0.75 0 0 1 20.25 21.25 "
                + "H3.75 A0.75 0.75 0 0 1 3.75 19.75 Z"
        }
    }

    /// How the art's overlapping subpaths fill.
    public var artFillRule: FillRule {
        switch self {
        case .news, .inbox: .evenodd
        default: .nonzero
        }
    }

    /// The version of the art (its path data and fill rule, hashed), which the icon's URLs carry
    /// as `?v=`: with the icon's name, state, scale and tint, the URL names one picture for
    /// good. Worked out once, for every icon.
    public var artVersion: String { Self.artVersions[self] ?? "" }

    private static let artVersions: [BuiltInIcon: String] = Dictionary(
        uniqueKeysWithValues: allCases.map {
            ($0, AppDescription.contentVersion($0.art + "|" + $0.artFillRule.rawValue))
        })
}
