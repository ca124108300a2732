import PathGeometry
import Rasterizer
import TabModel

/// The built-in icon set, parsed from the model's art (`BuiltInIcon.art`) and drawn by the
/// rasterizer.
public enum IconCatalog {
    /// Every built-in name, in a stable order (the model's).
    public static let names = BuiltInIcon.allCases.map(\.rawValue)

    public static func icon(named name: String) -> Icon? { icons[name] }

    /// Parsed once from the model's art (`BuiltInIcon.art`); a built-in that failed to parse would
    /// be missing here, which the tests rule out.
    private static let icons: [String: Icon] = {
        var result: [String: Icon] = [:]
        for icon in BuiltInIcon.allCases {
            guard let path = try? PathData(parsing: icon.art) else { continue }
            let fillRule: PathGeometry.FillRule = icon.artFillRule == .evenodd ? .evenOdd : .nonZero
            result[icon.rawValue] = Icon(name: icon.rawValue, source: icon.art, path: path, fillRule: fillRule)
        }
        return result
    }()
}
