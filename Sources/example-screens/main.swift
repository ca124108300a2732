import ExampleScreens
import Foundation

// Writes the example app's screens (ExampleScreens) into the folder given, examples/screens by
// default: `scripts/example-screens`.
let folder = CommandLine.arguments.dropFirst().first ?? "examples/screens"
try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
for screen in ExampleScreens.all() {
    let path = folder + "/" + screen.name
    try Data(screen.png).write(to: URL(fileURLWithPath: path))
    print("\(path): \(screen.png.count) bytes")
}
