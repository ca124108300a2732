import ContentHash
import Foundation
import PathGeometry
import TabModel

/// Loads an app description with what TabModel cannot check itself: that every path-data icon
/// parses (TabModel keeps path data as text and knows no rasterizer), and the image files of its
/// screen pages (TabModel reads no files). `check`, `serve --app`, `snapshot --app` and tests
/// load apps through here, so a malformed path or a missing image is a problem reported with all
/// the others, not a 404 later.
public enum AppLoading {
    /// `folder` is the app file's: its screens' image files are read from it and only from it.
    /// Without one, a screen's image is reported missing.
    public static func load(json: [UInt8], folder: String? = nil) -> Result<AppDescription, ValidationReport> {
        AppDescription.load(json: json, pathDataProblem: pathDataProblem) { name in
            guard let folder else { return .failure(.missing) }
            return screenFile(name, in: folder)
        }
    }

    /// ``load(json:folder:)`` of the file at `path`, whose folder holds its screens.
    public static func load(json: [UInt8], filePath path: String) -> Result<AppDescription, ValidationReport> {
        load(json: json, folder: URL(fileURLWithPath: path).deletingLastPathComponent().path)
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

    /// The screen image `name` (relative, as the app file writes it) in `folder`: a regular file
    /// whose real path lies inside the folder's, read whole when not too large.
    static func screenFile(_ name: String, in folder: String) -> Result<ScreenFileInfo, ScreenFileProblem> {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard !name.hasPrefix("/"), !parts.contains(".."), !name.contains("\0") else { return .failure(.outsideFolder) }
        let path = URL(fileURLWithPath: folder).appendingPathComponent(name).path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
            return .failure(.missing)
        }
        if attributes[.type] as? FileAttributeType == .typeSymbolicLink { return .failure(.symbolicLink) }
        // A folder on the way may be a link out of the app's folder.
        let realFolder = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
        let realFile = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard realFile.hasPrefix(realFolder.hasSuffix("/") ? realFolder : realFolder + "/") else {
            return .failure(.outsideFolder)
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else { return .failure(.notAnImage) }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        guard size <= ScreenFileInfo.maximumBytes else { return .failure(.tooLarge(bytes: size)) }
        guard let data = FileManager.default.contents(atPath: path) else { return .failure(.missing) }
        let bytes = Array(data)
        return ScreenFileInfo.of(bytes, fingerprint: fingerprint(of: bytes))
    }

    /// The name of an image's bytes in its URL: their content hash, without quotes.
    static func fingerprint(of bytes: [UInt8]) -> String {
        ContentHash.entityTag(for: bytes).filter { $0 != "\"" }
    }
}
