// The build tool behind Plugins/EmbedPublicFiles: writes one Swift file holding the default
// public files (Public/) as string literals with their entity tags, so the server needs no
// folder beside it. Usage: embed-public-files OUTPUT ROOT RELATIVE-PATH...
//
// Each file becomes one escaped string literal: a string literal type-checks at once, where a
// byte array literal of the same size takes the compiler minutes.

import ContentHash
import Foundation

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("embed-public-files: \(message)\n".utf8))
    exit(1)
}

/// `text` as the body of a Swift string literal: quotes, backslashes and control characters escaped.
func literal(_ text: String) -> String {
    var output = ""
    output.reserveCapacity(text.utf8.count + text.utf8.count / 8)
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": output += "\\\""
        case "\\": output += "\\\\"
        case "\n": output += "\\n"
        case "\t": output += "\\t"
        case "\r": output += "\\r"
        case _ where scalar.value < 0x20 || scalar.value == 0x7F:
            output += "\\u{" + String(scalar.value, radix: 16) + "}"
        default: output.unicodeScalars.append(scalar)
        }
    }
    return output
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count >= 2, let output = arguments.first else { fail("usage: OUTPUT ROOT RELATIVE-PATH...") }
let root = arguments.dropFirst().first ?? ""
var source = """
    // Generated at build time by Sources/embed-public-files from Public/; do not edit.

    import HTTPServer

    extension StaticFiles {
        /// The files of Public/ as they were when the binary was built.
        public static let embeddedFiles: [EmbeddedFile] = [

    """
for relative in arguments.dropFirst(2) {
    guard let data = FileManager.default.contents(atPath: root + "/" + relative) else {
        fail("cannot read \(relative)")
    }
    guard let text = String(data: data, encoding: .utf8) else { fail("\(relative) is not UTF-8 text") }
    let tag = ContentHash.entityTag(for: Array(data))
    source += "        EmbeddedFile(\n"
    source += "            path: \"\(literal(relative))\", entityTag: \"\(literal(tag))\",\n"
    source += "            text: \"\(literal(text))\"),\n"
}
source += "    ]\n}\n"
// Written only when it differs: the build runs this tool again whenever the tool itself was
// rebuilt (another product or configuration built in between), and a rewritten file, even one
// the same, would have the app's module compiled again on a build where no
// source changed.
let bytes = Data(source.utf8)
if let existing = FileManager.default.contents(atPath: output), existing == bytes { exit(0) }
do {
    try bytes.write(to: URL(fileURLWithPath: output), options: .atomic)
} catch {
    fail("cannot write \(output): \(error)")
}
