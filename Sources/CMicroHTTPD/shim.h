#include <stdarg.h>
#include <stdint.h>
#include <sys/socket.h>
#include <microhttpd.h>

// Swift cannot call C variadic functions, so each variadic libmicrohttpd call the HTTPServer
// module needs gets a fixed-argument wrapper here.

/// Wraps the variadic MHD_start_daemon with exactly the options HTTPServer sets.
/// The port argument is 0 on purpose: with MHD_OPTION_SOCK_ADDR the library reports the port
/// argument as the bound port, so 0 makes MHD_DAEMON_INFO_BIND_PORT ask the socket instead.
static inline struct MHD_Daemon *lifecycled_mhd_start_daemon(
    unsigned int flags,
    MHD_AccessHandlerCallback access_handler, void *access_handler_context,
    MHD_RequestCompletedCallback request_completed, void *request_completed_context,
    const struct sockaddr *address,
    unsigned int thread_pool_size,
    unsigned int connection_limit,
    unsigned int connection_timeout_seconds)
{
    return MHD_start_daemon(
        flags, 0, NULL, NULL,
        access_handler, access_handler_context,
        MHD_OPTION_NOTIFY_COMPLETED, request_completed, request_completed_context,
        MHD_OPTION_SOCK_ADDR, address,
        MHD_OPTION_THREAD_POOL_SIZE, thread_pool_size,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
        MHD_OPTION_END);
}

/// Wraps the variadic MHD_get_daemon_info for the one query HTTPServer makes: the bound port.
/// Returns 0 when the library cannot tell.
static inline uint16_t lifecycled_mhd_bound_port(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}
