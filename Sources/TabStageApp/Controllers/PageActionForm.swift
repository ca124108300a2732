import HTTPServer
import TabModel

/// Turns a posted page form into the model's action; the model checks the values.
enum PageActionForm {
    /// nil when `action` names no action at all (a 400); every other problem is the model's.
    static func action(from form: QueryItems) -> PageAction? {
        // A form's buttons may also send `action`; the last one sent is the button pressed.
        guard let name = form.values(for: "action").last else { return nil }
        let item = form["item"] ?? ""
        switch name {
        case "increment": return .increment
        case "decrement": return .decrement
        case "reset": return .reset
        case "search": return .setQuery(form["q"] ?? "")
        case "top-up": return .topUp(amount: form["amount"] ?? "")
        case "mark-read": return .markRead(itemID: item)
        case "mark-all-read": return .markAllRead
        case "toggle": return .toggle(itemID: item)
        case "nickname": return .setNickname(form["nickname"] ?? "")
        default: return nil
        }
    }
}
