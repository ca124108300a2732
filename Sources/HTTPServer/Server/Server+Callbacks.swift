import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// libmicrohttpd's callbacks are C function pointers: they capture nothing and find the server
// through the `cls` pointer, and the request's context through `con_cls`. Both outlive every
// callback (the server until `stop()` has joined libmicrohttpd's threads, the context until
// `requestCompleted`), so the callbacks use them without a retain of their own
// (`_withUnsafeGuaranteedRef`).
extension Server {
    /// Runs first for every request, with the target exactly as sent; its result becomes `*con_cls`.
    static let requestStarted: tabstage_uri_log_callback = { cls, uri, _ in
        guard let cls else { return nil }
        return Unmanaged<Server>.fromOpaque(cls)._withUnsafeGuaranteedRef { server in
            server.requestsInFlight.wrappingAdd(1, ordering: .relaxed)
            let target = uri.map {
                String(decoding: UnsafeRawBufferPointer(start: $0, count: strlen($0)), as: UTF8.self)
            }
            // Only the access log wants the duration: without it, no clock is read.
            let startedAt = server.configuration.accessLog == nil ? nil : RequestContext.monotonicNanoseconds
            let context = RequestContext(target: target ?? "", startedAt: startedAt)
            return Unmanaged.passRetained(context).toOpaque()
        }
    }

    static let requestCompleted: MHD_RequestCompletedCallback = { cls, _, contextSlot, _ in
        guard let cls else { return }
        if let contextSlot, let pointer = contextSlot.pointee {
            Unmanaged<RequestContext>.fromOpaque(pointer).release()
            contextSlot.pointee = nil
        }
        Unmanaged<Server>.fromOpaque(cls)._withUnsafeGuaranteedRef {
            _ = $0.requestsInFlight.wrappingSubtract(1, ordering: .releasing)
        }
    }

    static let accessHandler: MHD_AccessHandlerCallback = {
        cls, connection, _, method, version, uploadData, uploadDataSize, contextSlot in
        guard let cls, let connection, let contextSlot, let pointer = contextSlot.pointee else { return .NO }
        return Unmanaged<Server>.fromOpaque(cls)._withUnsafeGuaranteedRef { server in
            Unmanaged<RequestContext>.fromOpaque(pointer)._withUnsafeGuaranteedRef { context in
                server.handle(
                    connection: connection, method: method, version: version, context: context,
                    uploadData: uploadData, uploadDataSize: uploadDataSize)
            }
        }
    }

    /// libmicrohttpd calls this once with the headers, once per body chunk, and once at the end.
    func handle(
        connection: OpaquePointer, method methodName: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?,
        context: RequestContext, uploadData: UnsafePointer<CChar>?, uploadDataSize: UnsafeMutablePointer<Int>?
    ) -> MHD_Result {
        if !context.sawFirstCall {
            context.sawFirstCall = true
            let isHTTP11 = version.map { strcmp($0, "HTTP/1.1") == 0 } ?? false
            if let early = earlyRefusal(connection: connection, isHTTP11: isHTTP11) {
                return queue(early, method: Self.method(methodName), context: context, connection: connection)
            }
            // Queueing on the first call makes libmicrohttpd close the connection: wait for the next.
            return .YES
        }
        if let uploadDataSize, uploadDataSize.pointee > 0 {
            let count = uploadDataSize.pointee
            if !context.bodyTooLarge, let uploadData {
                if context.body.count + count > configuration.maxBodyBytes {
                    // Keep reading to the end so the 413 can be answered on a clean connection.
                    context.bodyTooLarge = true
                    context.body = []
                } else {
                    uploadData.withMemoryRebound(to: UInt8.self, capacity: count) {
                        context.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
                    }
                }
            }
            uploadDataSize.pointee = 0
            return .YES
        }
        let method = Self.method(methodName)
        let response: Response
        if context.bodyTooLarge {
            response = .statusPage(
                .contentTooLarge, message: "the body is larger than \(configuration.maxBodyBytes) bytes")
        } else {
            do {
                let request = try Request(
                    method: method, target: context.target, headers: Self.headers(of: connection),
                    body: context.body, client: client(of: connection))
                response = respond(request)
            } catch {
                response = .statusPage(.badRequest, message: error.description)
            }
        }
        return queue(response, method: method, context: context, connection: connection)
    }

    /// A 400 for a missing Host, or a 413 decided from the headers alone, before any body is read. Only when the client has not
    /// sent the body yet (`Expect: 100-continue`) or it is absurdly large: closing on a client that
    /// is still sending would reset the connection and lose the answer.
    private func earlyRefusal(connection: OpaquePointer, isHTTP11: Bool) -> Response? {
        // HTTP/1.1 requires Host (RFC 9112 §3.2); libmicrohttpd 0.9.75 does not check it.
        if isHTTP11 && MHD_lookup_connection_value(connection, .HEADER_KIND, "Host") == nil {
            var response = Response.statusPage(.badRequest, message: "an HTTP/1.1 request needs a Host header")
            response.headers["Connection"] = "close"
            return response
        }
        guard let lengthText = Self.header("Content-Length", of: connection), let length = Int(lengthText),
            length > configuration.maxBodyBytes
        else { return nil }
        let expectsContinue = Self.header("Expect", of: connection)?.lowercased() == "100-continue"
        guard expectsContinue || length > configuration.maxBodyBytes * 16 else { return nil }
        var response = Response.statusPage(
            .contentTooLarge, message: "the body is larger than \(configuration.maxBodyBytes) bytes")
        response.headers["Connection"] = "close"
        return response
    }

    /// Takes the response it sends (`consuming`), so adding a field does not copy it.
    private func queue(
        _ response: consuming Response, method: HTTPMethod, context: RequestContext, connection: OpaquePointer
    ) -> MHD_Result {
        // Reading the flag without the lock is fine: a request racing `stop()` may go either way.
        if stopping.load(ordering: .relaxed) { response.headers["Connection"] = "close" }
        let result: MHD_Result
        if let stream = response.stream {
            let queued = queueStream(stream, status: response.status, headers: response.headers, connection: connection)
            result = queued.result
            response.status = queued.status
        } else if let prepared = response.preparedForm {
            // Built once with checked headers (see `Response.prepared()`): nothing to copy or check.
            result = MHD_queue_response(connection, UInt32(response.status.rawValue), prepared.pointer)
        } else {
            // Headers from `checked()` are known safe and say nosniff already.
            if !response.headers.isChecked {
                if !Self.areSafe(response.headers) { response = .statusPage(.internalServerError) }
                // Prepared responses carry the header from `prepared()`.
                response.headers.addNoSniff()
            }
            let body = response.status.allowsBody ? response.body : []
            guard let mhdResponse = Self.makeResponse(lending: body) else { return .NO }
            defer { MHD_destroy_response(mhdResponse) }
            _ = Self.addHeaders(response.headers, to: mhdResponse)
            result = MHD_queue_response(connection, UInt32(response.status.rawValue), mhdResponse)
        }
        if let accessLog = configuration.accessLog {
            let nanoseconds = context.startedAt.map { RequestContext.monotonicNanoseconds &- $0 } ?? 0
            let milliseconds = Double(nanoseconds) / 1e6
            let bodyBytes = method == .head || !response.status.allowsBody ? 0 : response.body.count
            let client = configuration.trustedProxies.isEmpty ? nil : clientAddress(of: connection)
            accessLog(
                AccessLogEntry(
                    method: method.rawValue, target: context.target, status: response.status.rawValue,
                    bodyBytes: bodyBytes, durationMilliseconds: milliseconds, client: client))
        }
        return result
    }

    /// A libmicrohttpd response whose body is `body`'s own storage, kept alive until
    /// libmicrohttpd is done with it: the page is never copied per request.
    ///
    /// A native array's elements sit at one address for the life of its storage, and nothing can
    /// change them while the box holds the only other reference to it (a write would copy).
    static func makeResponse(lending body: [UInt8]) -> OpaquePointer? {
        guard !body.isEmpty else { return MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT) }
        let storage = Unmanaged.passRetained(LentBody(body))
        let address = storage.takeUnretainedValue().bytes.withUnsafeBytes {
            UnsafeMutableRawPointer(mutating: $0.baseAddress)
        }
        let created = MHD_create_response_from_buffer_with_free_callback_cls(
            body.count, address, { cls in cls.map { Unmanaged<LentBody>.fromOpaque($0).release() } },
            storage.toOpaque())
        if created == nil { storage.release() }
        return created
    }

    /// Adds every field to a libmicrohttpd response, which copies them; false when it refuses one.
    static func addHeaders(_ headers: HTTPHeaders, to response: OpaquePointer) -> Bool {
        for index in headers.fields.indices {
            let added = headers.fields[index].name.withCString { name in
                headers.fields[index].value.withCString { value in MHD_add_response_header(response, name, value) }
            }
            guard added == .YES else { return false }
        }
        return true
    }

    /// The method without building a String for the common ones.
    static func method(_ name: UnsafePointer<CChar>?) -> HTTPMethod {
        guard let name else { return HTTPMethod("") }
        if strcmp(name, "GET") == 0 { return .get }
        if strcmp(name, "HEAD") == 0 { return .head }
        if strcmp(name, "POST") == 0 { return .post }
        return HTTPMethod(String(cString: name))
    }

    /// libmicrohttpd refuses header lines with CR, LF or NUL; a handler producing one is a bug (500).
    static func hasSafeHeaders(_ response: Response) -> Bool {
        response.headers.isChecked || areSafe(response.headers)
    }

    static func areSafe(_ headers: HTTPHeaders) -> Bool {
        headers.allSatisfy { field in
            !field.name.isEmpty && isSafeHeaderText(field.name) && isSafeHeaderText(field.value)
        }
    }

    /// Counts the bad bytes instead of stopping at the first: a loop without an exit, which the
    /// compiler runs many bytes at a time (the fields are clean but for bugs, and read in full).
    private static func isSafeHeaderText(_ text: String) -> Bool {
        func badBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
            var bad = 0
            for byte in bytes { bad &+= byte == 0x0D || byte == 0x0A || byte == 0 ? 1 : 0 }
            return bad
        }
        if let bad = text.utf8.withContiguousStorageIfAvailable(badBytes) { return bad == 0 }
        var text = text
        return text.withUTF8(badBytes) == 0
    }

    /// Every request header, in order. The count comes first so the array is allocated once;
    /// the callback appends through a pointer to the fields being built (no box to allocate,
    /// no exclusivity check per header).
    static func headers(of connection: OpaquePointer) -> HTTPHeaders {
        let count = MHD_get_connection_values(connection, .HEADER_KIND, nil, nil)
        guard count > 0 else { return HTTPHeaders() }
        var headers = HTTPHeaders()
        headers.reserveCapacity(Int(count))
        withUnsafeMutablePointer(to: &headers) { headers in
            _ = MHD_get_connection_values(
                connection, .HEADER_KIND,
                { cls, _, key, value in
                    guard let cls, let key else { return .YES }
                    cls.assumingMemoryBound(to: HTTPHeaders.self).pointee.add(
                        name: String(cString: key), value: value.map { String(cString: $0) } ?? "")
                    return .YES
                }, headers)
        }
        return headers
    }

    static func header(_ name: String, of connection: OpaquePointer) -> String? {
        MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) }
    }

    /// The client's address: the connection's own, or, from a trusted proxy (`trustedProxies`),
    /// the one its `X-Forwarded-For` names. What the access log shows, per-address limits count
    /// and `Request.remoteAddress` says.
    func clientAddress(of connection: OpaquePointer) -> String {
        let peer = Self.remoteAddress(of: connection)
        let proxies = configuration.trustedProxies
        guard !proxies.isEmpty else { return peer }
        return proxies.client(peer: peer, forwardedFor: Self.header("X-Forwarded-For", of: connection))
    }

    /// `clientAddress(of:)` as a request keeps it: without trusted proxies, the socket's bytes,
    /// made text only if a handler reads `Request.remoteAddress`.
    func client(of connection: OpaquePointer) -> ClientAddress {
        guard configuration.trustedProxies.isEmpty else { return .text(clientAddress(of: connection)) }
        return .peer(tabstage_connection_peer(connection))
    }

    static func remoteAddress(of connection: OpaquePointer) -> String {
        ClientAddress.format(tabstage_connection_peer(connection))
    }
}

/// A response body lent to libmicrohttpd: it releases the box when it destroys the response.
final class LentBody {
    let bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }
}
