// Header-only shims for libmicrohttpd: MHD_start_daemon is variadic (Swift cannot call it) and the
// reader's end markers are macros. Nothing here holds state.
#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H

#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>

static const ssize_t CMHD_READER_END_OF_STREAM = MHD_CONTENT_READER_END_OF_STREAM;
static const ssize_t CMHD_READER_END_WITH_ERROR = MHD_CONTENT_READER_END_WITH_ERROR;
static const uint64_t CMHD_SIZE_UNKNOWN = MHD_SIZE_UNKNOWN;
static const enum MHD_Result CMHD_YES = MHD_YES;
static const enum MHD_Result CMHD_NO = MHD_NO;
static const enum MHD_ValueKind CMHD_HEADER_KIND = MHD_HEADER_KIND;
static const enum MHD_ValueKind CMHD_GET_ARGUMENT_KIND = MHD_GET_ARGUMENT_KIND;
static const enum MHD_ResponseMemoryMode CMHD_RESPMEM_MUST_COPY = MHD_RESPMEM_MUST_COPY;

/// Starts a daemon with one thread per connection (a streaming viewer may block in its reader),
/// bound to `address` (IPv4 or IPv6), with the connection and memory limits rec uses. Returns NULL
/// when the port is taken or the address is not this machine's.
static inline struct MHD_Daemon *cmhd_start(const struct sockaddr *address, int ipv6,
                                            MHD_AccessHandlerCallback handler, void *handler_cls,
                                            MHD_RequestCompletedCallback completed, void *completed_cls,
                                            unsigned int connection_limit, unsigned int per_ip_limit,
                                            unsigned int timeout_seconds, size_t memory_limit) {
    unsigned int flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL;
    if (ipv6) flags |= MHD_USE_IPv6;
    uint16_t port = ipv6 ? ntohs(((const struct sockaddr_in6 *)address)->sin6_port)
                         : ntohs(((const struct sockaddr_in *)address)->sin_port);
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
                            MHD_OPTION_END);
}

/// The port the daemon listens on (when started on port 0).
static inline uint16_t cmhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}
#endif
