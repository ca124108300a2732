import Colour
import Rasterizer
import TabModel

/// docs/images/icons.png: every built-in icon as the rasterizer draws it (a flat fill of
/// `#1C1C1E`) in its 80-point cell at 2x, `columns` a row in the catalogue's order, on white;
/// docs/app-format.md shows it beside the names (`draw-pictures icon-sheet`, through
/// `scripts/icon-sheet`, writes it and its listing, docs/images/icons.json).
public enum IconSheet {
    public static let columns = 7

    /// The sheet's PNG, and the names it shows in order.
    public static func draw() -> (png: [UInt8], names: [String]) {
        let icons = BuiltInIcon.allCases
        let cell = Int(IconCell.sizeInPoints)
        let rows = (icons.count + columns - 1) / columns
        var canvas = Canvas(
            width: cell * columns, height: cell * rows, scale: 2, background: RGBColor(red: 255, green: 255, blue: 255))
        let ink = RGBColor(red: 0x1C, green: 0x1C, blue: 0x1E)
        let inset = (IconCell.sizeInPoints - IconCell.iconSizeInPoints) / 2
        for (index, icon) in icons.enumerated() {
            // The icon's 24-point square where the cell puts it: centred across, lifted up.
            let x = (index % columns) * cell + Int(inset)
            let y = (index / columns) * cell + Int(inset - IconCell.upwardShiftInPoints)
            canvas.icon(icon, x: x, y: y, color: ink)
        }
        return (encodePNG(canvas.raster), icons.map(\.rawValue))
    }
}
