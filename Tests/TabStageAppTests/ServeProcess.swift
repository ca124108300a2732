import Foundation
import Testing

/// Starts the built `tabstage serve --port 0 --quiet` plus `arguments` in `directory` (the
/// repository root unless given), and returns the process with the port it printed. The caller
/// stops it.
func launchServe(_ arguments: [String], in directory: URL = StageServer.repositoryRoot) throws -> (
    process: Process, port: UInt16
) {
    let binary = StageServer.repositoryRoot.appendingPathComponent(".build/debug/tabstage")
    try #require(FileManager.default.isExecutableFile(atPath: binary.path), "build tabstage first")
    let process = Process()
    process.executableURL = binary
    process.arguments = ["serve", "--port", "0", "--quiet"] + arguments
    process.currentDirectoryURL = directory
    let stderr = Pipe()
    process.standardError = stderr
    try process.run()
    var output = ""
    while !output.contains("\n") {
        let chunk = stderr.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        output += String(decoding: chunk, as: UTF8.self)
    }
    let prefix = "TabStage listening on http://127.0.0.1:"
    guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }),
        let port = UInt16(line.dropFirst(prefix.count).dropLast())
    else {
        if process.isRunning { process.terminate() }
        Issue.record("no listening line; stderr: \(output)")
        throw CancellationError()
    }
    return (process, port)
}
