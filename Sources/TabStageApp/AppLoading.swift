import PathGeometry
import TabModel

/// Loads an app description with what TabModel cannot check itself: that every path-data icon
/// parses (TabModel keeps path data as text and knows no rasterizer). `check`, `serve --app`,
/// `snapshot --app` and tests load apps through here, so a malformed path is a problem reported
/// with all the others, not a 404 later.
public enum AppLoading {
    public static func load(json: [UInt8]) -> Result<AppDescription, ValidationReport> {
        AppDescription.load(json: json, pathDataProblem: pathDataProblem)
    }

    /// Why path data does not draw, in words (`after 'L 4 5', expected a number`), nil when it
    /// does.
    static func pathDataProblem(_ data: String) -> String? {
        do throws(PathSyntaxError) {
            _ = try PathData(parsing: data)
            return nil
        } catch {
            return error.explained(in: data)
        }
    }
}
