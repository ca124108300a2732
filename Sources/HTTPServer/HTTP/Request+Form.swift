/// Why a form body was refused; each case maps to the status the client should see.
public enum FormError: Error, Equatable, CustomStringConvertible, HTTPResponseError {
    case unsupportedContentType(String)
    case tooLarge(limit: Int)
    case invalidEncoding(PercentDecodingError)
    case invalidUTF8

    public var description: String {
        switch self {
        case .unsupportedContentType(let type): "expected an application/x-www-form-urlencoded body, not '\(type)'"
        case .tooLarge(let limit): "the form is larger than \(limit) bytes"
        case .invalidEncoding(let error): "bad form: \(error)"
        case .invalidUTF8: "the form is not valid UTF-8"
        }
    }

    public var status: HTTPStatus {
        switch self {
        case .unsupportedContentType: .unsupportedMediaType
        case .tooLarge: .contentTooLarge
        case .invalidEncoding, .invalidUTF8: .badRequest
        }
    }
}

extension Request {
    /// Decodes an `application/x-www-form-urlencoded` body.
    public func form(limit: Int = 64 * 1024) throws(FormError) -> QueryItems {
        let contentType = headers["Content-Type"] ?? ""
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingSpaces.lowercased() }
        guard mediaType == "application/x-www-form-urlencoded" else {
            throw .unsupportedContentType(contentType)
        }
        guard body.count <= limit else { throw .tooLarge(limit: limit) }
        guard let text = String(validating: body, as: UTF8.self) else { throw .invalidUTF8 }
        do {
            return try QueryItems(parsing: Substring(text))
        } catch {
            throw .invalidEncoding(error)
        }
    }
}
