import Foundation
import PackagePlugin

/// Embeds the package's Public/ folder (the default stylesheet, script and icons of the page
/// chrome) into the target as Swift source, so `tabstage serve` runs from any folder.
/// `serve --public DIR` still serves a folder of one's own instead.
@main
struct EmbedPublicFiles: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL.appending(path: "Public")
        let relativePaths = try Self.files(under: root, relative: "")
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedPublicFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding Public/ (\(relativePaths.count) files)",
                executable: try context.tool(named: "embed-public-files").url,
                arguments: [output.path, root.path] + relativePaths,
                inputFiles: relativePaths.map { root.appending(path: $0) },
                outputFiles: [output])
        ]
    }

    /// Regular files below `folder`, sorted, skipping dot-files (as the server's folder walk does).
    private static func files(under folder: URL, relative: String) throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        var found: [String] = []
        for name in names where !name.hasPrefix(".") {
            let url = folder.appending(path: name)
            let path = relative.isEmpty ? name : relative + "/" + name
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                found += try files(under: url, relative: path)
            } else {
                found.append(path)
            }
        }
        return found
    }
}
