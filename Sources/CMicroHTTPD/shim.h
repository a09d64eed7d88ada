#include <stdarg.h>
#include <stdint.h>
#include <sys/socket.h>
#include <microhttpd.h>

// Swift cannot call C variadic functions, so each variadic libmicrohttpd call the HTTPServer
// module needs gets a fixed-argument wrapper here.

/// Bytes of libmicrohttpd's per-connection memory pool: the request line, headers and query arguments must
/// fit, so this decides where libmicrohttpd answers 414/431 (or closes) by itself; the HTTP module's own
/// limits (RequestTarget) answer before that with a problem document. Each open connection holds about this
/// much resident memory. Above 32 KiB libmicrohttpd 0.9.75 maps each pool with mmap instead of malloc, so a
/// closed connection's pool goes back to the system: with 32 KiB (its default), 5,000 idle connections left
/// the RSS 160 MiB higher after they closed; with 40 KiB it returns to where it was.
#define LIFECYCLED_CONNECTION_MEMORY (40 * 1024)

/// Wraps the variadic MHD_start_daemon with exactly the options HTTPServer sets: a daemon without a thread
/// of its own (HTTPServer's event loop runs it), bound with SO_REUSEPORT so that every loop's daemon shares
/// one address. The port argument is 0 on purpose: with MHD_OPTION_SOCK_ADDR the library reports the port
/// argument as the bound port, so 0 makes MHD_DAEMON_INFO_BIND_PORT ask the socket instead.
static inline struct MHD_Daemon *lifecycled_mhd_start_daemon(
    unsigned int flags,
    MHD_AcceptPolicyCallback accept_policy, void *accept_policy_context,
    MHD_AccessHandlerCallback access_handler, void *access_handler_context,
    MHD_RequestCompletedCallback request_completed, void *request_completed_context,
    MHD_NotifyConnectionCallback notify_connection, void *notify_connection_context,
    void *(*uri_log)(void *cls, const char *uri, struct MHD_Connection *connection), void *uri_log_context,
    const struct sockaddr *address,
    unsigned int connection_limit,
    unsigned int connection_timeout_seconds)
{
    return MHD_start_daemon(
        flags, 0, accept_policy, accept_policy_context,
        access_handler, access_handler_context,
        MHD_OPTION_NOTIFY_COMPLETED, request_completed, request_completed_context,
        MHD_OPTION_NOTIFY_CONNECTION, notify_connection, notify_connection_context,
        MHD_OPTION_URI_LOG_CALLBACK, uri_log, uri_log_context,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)LIFECYCLED_CONNECTION_MEMORY,
        MHD_OPTION_SOCK_ADDR, address,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
        MHD_OPTION_LISTENING_ADDRESS_REUSE, (unsigned int)1,
        MHD_OPTION_END);
}

/// Wraps the variadic MHD_get_daemon_info for the bound port. Returns 0 when the library cannot tell.
static inline uint16_t lifecycled_mhd_bound_port(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// Wraps the variadic MHD_get_daemon_info for the daemon's epoll descriptor; -1 when it has none.
static inline int lifecycled_mhd_epoll_fd(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_EPOLL_FD);
    return info == NULL ? -1 : info->epoll_fd;
}

/// Wraps the variadic MHD_get_connection_info for the connection's socket; -1 when unknown.
static inline int lifecycled_mhd_connection_fd(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// Wraps the variadic MHD_get_connection_info for the pointer the connection notification set as the
/// connection's socket context; NULL when none was set.
static inline void *lifecycled_mhd_socket_context(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

/// Wraps the variadic MHD_get_connection_info for the client's address; NULL when unknown.
static inline const struct sockaddr *lifecycled_mhd_client_address(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

#include <sys/eventfd.h>

/// A non-blocking, close-on-exec eventfd (the flags are C enumerators Swift imports awkwardly); -1 on failure.
static inline int lifecycled_eventfd(void)
{
    return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}

#include <sys/epoll.h>

/// An epoll descriptor for sockets watched for hang-up only (close-on-exec); -1 on failure.
static inline int lifecycled_hangup_watch_create(void)
{
    return epoll_create1(EPOLL_CLOEXEC);
}

/// Watches `socket` for the peer's hang-up (EPOLLRDHUP; EPOLLHUP and EPOLLERR are implied). 0 on success.
static inline int lifecycled_hangup_watch_add(int watch, int socket)
{
    struct epoll_event event = {.events = EPOLLRDHUP, .data = {.fd = socket}};
    return epoll_ctl(watch, EPOLL_CTL_ADD, socket, &event);
}

static inline int lifecycled_hangup_watch_remove(int watch, int socket)
{
    return epoll_ctl(watch, EPOLL_CTL_DEL, socket, NULL);
}

/// Fills `sockets` with up to `capacity` sockets that hung up, without waiting; returns how many (or -1).
static inline int lifecycled_hangup_watch_ready(int watch, int *sockets, int capacity)
{
    struct epoll_event events[64];
    int count = epoll_wait(watch, events, capacity < 64 ? capacity : 64, 0);
    for (int i = 0; i < count; i++) sockets[i] = events[i].data.fd;
    return count;
}
