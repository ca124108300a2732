#ifndef TABSTAGE_MICROHTTPD_SHIM_H
#define TABSTAGE_MICROHTTPD_SHIM_H
// libmicrohttpd's start and info calls are C-variadic, which Swift cannot call:
// these fixed-argument wrappers are compiled into the module.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <microhttpd.h>
#ifdef __linux__
// Swift's Glibc module leaves epoll out: StreamWatcher reaches it through this module.
#include <sys/epoll.h>
#endif

/// Called with the raw request target before libmicrohttpd decodes it; the result becomes `*con_cls`.
typedef void *(*tabstage_uri_log_callback)(void *cls, const char *uri, struct MHD_Connection *connection);

/// Every limit is passed explicitly because libmicrohttpd's defaults are unsafe (no timeout, no per-IP limit).
struct tabstage_daemon_limits {
    unsigned int thread_pool_size;   // 0 or 1: no pool (required with thread-per-connection)
    unsigned int connection_limit;
    unsigned int per_ip_connection_limit;
    unsigned int connection_timeout_seconds;
    size_t connection_memory_limit;
    unsigned int listen_backlog;
};

static inline struct MHD_Daemon *tabstage_start_daemon(
    unsigned int flags,
    const struct sockaddr *listen_address,
    struct tabstage_daemon_limits limits,
    MHD_AccessHandlerCallback access_handler, void *access_handler_cls,
    MHD_RequestCompletedCallback completed, void *completed_cls,
    tabstage_uri_log_callback uri_log, void *uri_log_cls)
{
    struct MHD_OptionItem options[12];
    int count = 0;
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_SOCK_ADDR, 0, (void *)listen_address};
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_LIMIT, limits.connection_limit, NULL};
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_PER_IP_CONNECTION_LIMIT, limits.per_ip_connection_limit, NULL};
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_TIMEOUT, limits.connection_timeout_seconds, NULL};
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)limits.connection_memory_limit, NULL};
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, completed_cls};
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)uri_log, uri_log_cls};
    if (limits.listen_backlog > 0) {
        options[count++] = (struct MHD_OptionItem){MHD_OPTION_LISTEN_BACKLOG_SIZE, limits.listen_backlog, NULL};
    }
    if (limits.thread_pool_size > 1) {
        options[count++] = (struct MHD_OptionItem){MHD_OPTION_THREAD_POOL_SIZE, limits.thread_pool_size, NULL};
    }
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_END, 0, NULL};
    // The port inside listen_address wins over this one; libmicrohttpd still wants a value here.
    uint16_t port = 0;
    if (listen_address->sa_family == AF_INET) {
        port = ntohs(((const struct sockaddr_in *)listen_address)->sin_port);
    } else if (listen_address->sa_family == AF_INET6) {
        port = ntohs(((const struct sockaddr_in6 *)listen_address)->sin6_port);
    }
    return MHD_start_daemon(flags, port, NULL, NULL, access_handler, access_handler_cls,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// The port the daemon is bound to (the chosen one when started on port 0), or 0 if unknown.
static inline uint16_t tabstage_daemon_bound_port(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// A client's IP address as its socket holds it: `family` is AF_INET (the first 4 bytes) or
/// AF_INET6 (all 16), 0 when unknown.
struct tabstage_peer {
    int family;
    unsigned char bytes[16];
};

/// The connection's peer address, copied as bytes (nothing is formatted).
static inline struct tabstage_peer tabstage_connection_peer(struct MHD_Connection *connection)
{
    struct tabstage_peer peer = {0};
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return peer;
    const struct sockaddr *address = info->client_addr;
    if (address->sa_family == AF_INET) {
        peer.family = AF_INET;
        memcpy(peer.bytes, &((const struct sockaddr_in *)address)->sin_addr, 4);
    } else if (address->sa_family == AF_INET6) {
        peer.family = AF_INET6;
        memcpy(peer.bytes, &((const struct sockaddr_in6 *)address)->sin6_addr, 16);
    }
    return peer;
}

/// Writes `peer` in numeric form into `buffer`; returns 0 on success, -1 if unknown.
/// IPv4 is written by hand: glibc's inet_ntop goes through sprintf, which cost more than the
/// rest of building a request.
static inline int tabstage_format_peer(const struct tabstage_peer *peer, char *buffer, socklen_t size)
{
    if (peer->family == AF_INET) {
        if (size < INET_ADDRSTRLEN) return -1;
        char *out = buffer;
        for (int i = 0; i < 4; i++) {
            unsigned int octet = peer->bytes[i];
            if (octet >= 100) *out++ = (char)('0' + octet / 100);
            if (octet >= 10) *out++ = (char)('0' + octet / 10 % 10);
            *out++ = (char)('0' + octet % 10);
            *out++ = i < 3 ? '.' : '\0';
        }
        return 0;
    }
    if (peer->family == AF_INET6) {
        return inet_ntop(AF_INET6, peer->bytes, buffer, size) == NULL ? -1 : 0;
    }
    return -1;
}

// The connections the daemon holds open now (all threads of its pool), for /metrics.
static inline unsigned int tabstage_daemon_open_connections(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info == NULL ? 0 : info->num_connections;
}

/// The connection's socket, or -1 if unknown. Only watched, never read, written or closed:
/// libmicrohttpd owns it.
static inline int tabstage_connection_socket(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

#endif
