import DrawnPictures
import Foundation

// Writes the pictures the project draws for itself, with its own rasterizer and PNG encoder:
//   draw-pictures screens [FOLDER]      the example app's screens (examples/screens)
//   draw-pictures icon-sheet [FOLDER]   docs/images/icons.png and icons.json
let arguments = Array(CommandLine.arguments.dropFirst())
func write(_ bytes: [UInt8], to path: String) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    print("\(path): \(bytes.count) bytes")
}
switch arguments.first {
case "screens":
    let folder = arguments.dropFirst().first ?? "examples/screens"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for screen in ExampleScreens.all() { try write(screen.png, to: folder + "/" + screen.name) }
case "icon-sheet":
    let folder = arguments.dropFirst().first ?? "docs/images"
    let sheet = IconSheet.draw()
    try write(sheet.png, to: folder + "/icons.png")
    let listing = ["columns": IconSheet.columns as Any, "names": sheet.names]
    let json = try JSONSerialization.data(withJSONObject: listing, options: [.prettyPrinted, .sortedKeys])
    try write(Array(json) + [0x0A], to: folder + "/icons.json")
default:
    FileHandle.standardError.write(Data("usage: draw-pictures screens|icon-sheet [FOLDER]\n".utf8))
    exit(2)
}
