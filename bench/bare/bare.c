/*
 * bare-server: the baseline for benchmarking HTTPServer. A minimal libmicrohttpd server that answers
 * every GET or POST with the same small JSON body, using the flags HTTPServer uses: an internal epoll
 * thread pool with turbo mode, bound to 127.0.0.1. POST bodies are read and discarded.
 *
 * Build: cc -O2 -o bench/bare/bare-server bench/bare/bare.c $(pkg-config --cflags --libs libmicrohttpd)
 * Run:   bench/bare/bare-server PORT THREADS [external|epoll|poll]   (default epoll; stops on SIGINT or SIGTERM)
 *
 * epoll and poll: libmicrohttpd's own thread pool of THREADS. external: HTTPServer's default event loop,
 * one daemon per thread without an internal thread, all bound with SO_REUSEPORT, each thread polling its
 * daemon's epoll descriptor (at most MHD_get_timeout) and then calling MHD_run. The flags otherwise match
 * HTTPServer's, MHD_ALLOW_SUSPEND_RESUME included, so the two differ only in the handler.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>
#include <microhttpd.h>

static const char small_body[] = "{\"id\":\"a1\",\"state\":\"active\"}";
static struct MHD_Response *shared_response;

/* Answers on the call after the headers, never on the first one: libmicrohttpd 0.9.75 drops
 * keep-alive for a response queued while *req_cls is still NULL. */
static enum MHD_Result handle(void *cls, struct MHD_Connection *connection, const char *url,
                              const char *method, const char *version, const char *upload_data,
                              size_t *upload_data_size, void **req_cls)
{
    (void)cls; (void)url; (void)version; (void)upload_data;
    static int marker;
    if (*req_cls == NULL) {
        if (strcmp(method, "GET") != 0 && strcmp(method, "POST") != 0)
            return MHD_NO;
        *req_cls = &marker;
        return MHD_YES;
    }
    if (*upload_data_size != 0) {
        *upload_data_size = 0; /* discard the body */
        return MHD_YES;
    }
    return MHD_queue_response(connection, MHD_HTTP_OK, shared_response);
}

/* The external loop of one daemon; returns when stop_fd becomes readable. */
struct loop { struct MHD_Daemon *daemon; int stop_fd; pthread_t thread; };

static void *run_loop(void *argument)
{
    struct loop *loop = argument;
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(loop->daemon, MHD_DAEMON_INFO_EPOLL_FD);
    struct pollfd fds[2] = {{.fd = info->epoll_fd, .events = POLLIN}, {.fd = loop->stop_fd, .events = POLLIN}};
    for (;;) {
        MHD_UNSIGNED_LONG_LONG timeout = 0;
        int wait = MHD_get_timeout(loop->daemon, &timeout) == MHD_YES ? (int)(timeout > 1000 ? 1000 : timeout) : 1000;
        fds[0].revents = fds[1].revents = 0;
        if (wait > 0) poll(fds, 2, wait);
        if (fds[1].revents) return NULL;
        MHD_run(loop->daemon);
    }
}

int main(int argc, char **argv)
{
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: %s PORT THREADS [epoll|poll]\n", argv[0]);
        return 2;
    }
    int port = atoi(argv[1]);
    int threads = atoi(argv[2]);
    const char *mode = argc == 4 ? argv[3] : "epoll";
    int external = strcmp(mode, "external") == 0;
    if (port <= 0 || port > 65535 || threads < 1
        || (strcmp(mode, "epoll") != 0 && strcmp(mode, "poll") != 0 && !external)) {
        fprintf(stderr, "invalid PORT, THREADS or mode\n");
        return 2;
    }
    unsigned int polling = strcmp(mode, "poll") == 0 ? MHD_USE_POLL : MHD_USE_EPOLL;

    /* Block the stop signals before any thread starts, then wait for them on this thread. */
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, NULL);

    /* BARE_BODY_BYTES pads the body to that size, to compare with answers as large as the daemon's. */
    const char *body = small_body;
    size_t body_size = sizeof small_body - 1;
    const char *pad = getenv("BARE_BODY_BYTES");
    if (pad != NULL && atoi(pad) > (int)body_size + 10) {
        body_size = (size_t)atoi(pad);
        char *padded = malloc(body_size);
        if (padded == NULL)
            return 1;
        memset(padded, 'x', body_size);
        memcpy(padded, "{\"pad\":\"", 8);
        memcpy(padded + body_size - 2, "\"}", 2);
        body = padded;
    }
    shared_response = MHD_create_response_from_buffer(body_size, (void *)body, MHD_RESPMEM_PERSISTENT);
    MHD_add_response_header(shared_response, "Content-Type", "application/json");

    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons((uint16_t)port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);

    if (external) {
        struct loop loops[64];
        if (threads > 64) threads = 64;
        for (int i = 0; i < threads; i++) {
            loops[i].daemon = MHD_start_daemon(
                MHD_USE_EPOLL | MHD_USE_TURBO | MHD_ALLOW_SUSPEND_RESUME, 0, NULL, NULL, handle, NULL,
                MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
                MHD_OPTION_LISTENING_ADDRESS_REUSE, 1u,
                MHD_OPTION_CONNECTION_LIMIT, 20000u / (unsigned int)threads,
                MHD_OPTION_CONNECTION_TIMEOUT, 60u,
                MHD_OPTION_END);
            if (loops[i].daemon == NULL) {
                fprintf(stderr, "cannot listen on 127.0.0.1:%d\n", port);
                return 1;
            }
            loops[i].stop_fd = eventfd(0, EFD_CLOEXEC);
            pthread_create(&loops[i].thread, NULL, run_loop, &loops[i]);
        }
        fprintf(stderr, "bare-server listening on 127.0.0.1:%d with %d threads (%s)\n", port, threads, mode);
        int received;
        sigwait(&stop_signals, &received);
        for (int i = 0; i < threads; i++) {
            uint64_t one = 1;
            if (write(loops[i].stop_fd, &one, sizeof one) != sizeof one) return 1;
            pthread_join(loops[i].thread, NULL);
            MHD_stop_daemon(loops[i].daemon);
        }
        MHD_destroy_response(shared_response);
        return 0;
    }

    struct MHD_Daemon *daemon = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | polling | MHD_USE_TURBO | MHD_ALLOW_SUSPEND_RESUME, 0, NULL, NULL, handle, NULL,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
        MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)threads,
        MHD_OPTION_CONNECTION_LIMIT, 20000u,
        MHD_OPTION_CONNECTION_TIMEOUT, 60u,
        MHD_OPTION_END);
    if (daemon == NULL) {
        fprintf(stderr, "cannot listen on 127.0.0.1:%d\n", port);
        return 1;
    }
    fprintf(stderr, "bare-server listening on 127.0.0.1:%d with %d threads (%s)\n", port, threads, mode);

    int received;
    sigwait(&stop_signals, &received);
    MHD_stop_daemon(daemon);
    MHD_destroy_response(shared_response);
    return 0;
}
