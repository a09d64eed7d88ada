// openloop: an open-loop, constant-rate HTTP/1.1 load generator, for latency at a given rate.
//
//   openloop HOST PORT RATE SECONDS CONNECTIONS REQUESTS_FILE
//
// Request i is due at start + i / RATE, whatever happened to the ones before it (open loop): it goes out on
// the first idle keep-alive connection of CONNECTIONS, or waits for one, and its latency counts from when it
// was due, not from when it went out, so a server that falls behind is charged for the wait (no coordinated
// omission). REQUESTS_FILE holds raw requests separated by NUL bytes, sent in turn. Answers must carry
// Content-Length (both servers of bench/run do). Prints one line:
//   RESULT asked=R reached=X sent=N completed=N errors=E non2xx=K backlog=B p50_ms= p90_ms= p99_ms= p999_ms= max_ms=
// where reached is the answers completed per second over the run, and backlog the requests still due
// but not answered when it ended. With OPENLOOP_SLOW_MS and OPENLOOP_SLOW_FILE set, each answer that took
// that long or longer is also written to the file, one line each, on the monotonic clock in milliseconds:
//   SLOW due_ms= sent_ms= done_ms= latency_ms= status=
// (bench/stalls matches them with what the daemon was doing at the time.)
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    const char *data;
    size_t length;
} request_t;

typedef struct {
    int fd;
    int busy;
    double due;           // when the request on it was due
    double went;          // when it went out (later than due when no connection was idle)
    size_t sent;          // bytes of the request written
    const request_t *request;
    char buffer[65536];   // the answer so far
    size_t have;
} connection_t;

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int open_connection(const char *host, int port) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (fd < 0) return -1;
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    inet_pton(AF_INET, host, &address.sin_addr);
    if (connect(fd, (struct sockaddr *)&address, sizeof address) < 0 && errno != EINPROGRESS) {
        close(fd);
        return -1;
    }
    return fd;
}

// Connects connection `index` (afresh when it had a socket) and watches it in `epoll`; its fd is -1 when the
// connection could not be opened.
static void connect_slot(int epoll, connection_t *connections, int index, const char *host, int port) {
    connection_t *c = &connections[index];
    if (c->fd >= 0) {
        epoll_ctl(epoll, EPOLL_CTL_DEL, c->fd, NULL);
        close(c->fd);
    }
    c->fd = open_connection(host, port);
    if (c->fd < 0) return;
    struct epoll_event event = {.events = EPOLLIN | EPOLLOUT | EPOLLET | EPOLLRDHUP, .data.u32 = (uint32_t)index};
    epoll_ctl(epoll, EPOLL_CTL_ADD, c->fd, &event);
}

// The length of a complete answer at the start of the buffer, 0 when it is not complete yet, -1 when it
// cannot be read (no Content-Length). *status gets the status code.
static long complete_answer(const char *buffer, size_t have, int *status) {
    const char *end = memmem(buffer, have, "\r\n\r\n", 4);
    if (!end) return 0;
    size_t head = (size_t)(end - buffer) + 4;
    *status = have > 12 ? atoi(buffer + 9) : 0;
    const char *field = buffer;
    long length = -1;
    while (field < end) {
        const char *line_end = memmem(field, (size_t)(end - field) + 2, "\r\n", 2);
        if (!line_end) break;
        if ((size_t)(line_end - field) > 15 && strncasecmp(field, "Content-Length:", 15) == 0) {
            length = atol(field + 15);
        }
        field = line_end + 2;
    }
    if (length < 0) return -1;
    return have >= head + (size_t)length ? (long)(head + (size_t)length) : 0;
}

int main(int argc, char **argv) {
    if (argc != 7) {
        fprintf(stderr, "usage: openloop HOST PORT RATE SECONDS CONNECTIONS REQUESTS_FILE\n");
        return 2;
    }
    const char *host = argv[1];
    int port = atoi(argv[2]);
    double rate = atof(argv[3]), seconds = atof(argv[4]);
    int count = atoi(argv[5]);
    if (rate <= 0 || seconds <= 0 || count <= 0) {
        fprintf(stderr, "openloop: RATE, SECONDS and CONNECTIONS must be positive\n");
        return 2;
    }

    FILE *file = fopen(argv[6], "rb");
    if (!file) { perror(argv[6]); return 2; }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    char *text = malloc((size_t)size + 1);
    if (fread(text, 1, (size_t)size, file) != (size_t)size) { perror("read"); return 2; }
    fclose(file);
    text[size] = 0;
    size_t kinds = 0;
    request_t *requests = calloc((size_t)size + 1, sizeof *requests);
    for (long at = 0; at < size;) {
        size_t length = strlen(text + at);
        if (length) requests[kinds++] = (request_t){text + at, length};
        at += (long)length + 1;
    }
    if (!kinds) { fprintf(stderr, "openloop: no request in %s\n", argv[6]); return 2; }

    size_t total = (size_t)(rate * seconds);
    double *latencies = malloc(total * sizeof *latencies);
    connection_t *connections = calloc((size_t)count, sizeof *connections);
    int epoll = epoll_create1(0);
    for (int i = 0; i < count; i++) {
        connections[i].fd = -1;
        connect_slot(epoll, connections, i, host, port);
        if (connections[i].fd < 0) { perror("connect"); return 1; }
    }
    int *idle = malloc((size_t)count * sizeof *idle);
    int idle_count = 0;
    for (int i = count - 1; i >= 0; i--) idle[idle_count++] = i;

    const char *slow_ms = getenv("OPENLOOP_SLOW_MS"), *slow_path = getenv("OPENLOOP_SLOW_FILE");
    double slow = slow_ms && slow_path ? atof(slow_ms) : -1;
    FILE *slow_file = slow >= 0 ? fopen(slow_path, "w") : NULL;
    if (slow >= 0 && !slow_file) { perror(slow_path); return 2; }
    size_t next = 0, completed = 0, errors = 0, non2xx = 0;
    double start = now_seconds() + 0.05;
    double end = start + seconds;
    struct epoll_event events[256];
    for (;;) {
        double now = now_seconds();
        // Every request due by now goes out on an idle connection; the others wait, their clock running.
        while (next < total && idle_count > 0 && start + (double)next / rate <= now) {
            connection_t *c = &connections[idle[--idle_count]];
            c->busy = 1;
            c->due = start + (double)next / rate;
            c->went = now;
            c->request = &requests[next % kinds];
            c->sent = 0;
            c->have = 0;
            ssize_t wrote = send(c->fd, c->request->data, c->request->length, MSG_NOSIGNAL);
            if (wrote > 0) c->sent = (size_t)wrote;
            next++;
        }
        if (now >= end + 2.0 || (next >= total && idle_count == count)) break;
        int timeout_ms = 1;
        if (next < total && idle_count > 0) {
            double wait = start + (double)next / rate - now;
            timeout_ms = wait > 0 ? (int)(wait * 1000) : 0;
        }
        int ready = epoll_wait(epoll, events, 256, timeout_ms);
        for (int e = 0; e < ready; e++) {
            connection_t *c = &connections[events[e].data.u32];
            if (!c->busy) {
                // An idle connection the server closed: open another in its place.
                if (events[e].events & (EPOLLRDHUP | EPOLLHUP | EPOLLERR)) {
                    connect_slot(epoll, connections, (int)(c - connections), host, port);
                }
                continue;
            }
            if (c->sent < c->request->length) {
                ssize_t wrote = send(c->fd, c->request->data + c->sent, c->request->length - c->sent, MSG_NOSIGNAL);
                if (wrote > 0) c->sent += (size_t)wrote;
            }
            for (;;) {
                ssize_t got = recv(c->fd, c->buffer + c->have, sizeof c->buffer - c->have, 0);
                if (got > 0) { c->have += (size_t)got; continue; }
                if (got == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) {
                    errors++;
                    c->busy = 0;
                    connect_slot(epoll, connections, (int)(c - connections), host, port);
                    idle[idle_count++] = (int)(c - connections);
                }
                break;
            }
            int status = 0;
            long length = c->busy ? complete_answer(c->buffer, c->have, &status) : 0;
            if (length < 0) { fprintf(stderr, "openloop: an answer without Content-Length\n"); return 1; }
            if (length > 0) {
                double done = now_seconds(), latency = (done - c->due) * 1000;
                if (completed < total) latencies[completed] = latency;
                if (slow_file && latency >= slow) {
                    fprintf(slow_file, "SLOW due_ms=%.3f sent_ms=%.3f done_ms=%.3f latency_ms=%.3f status=%d\n",
                            c->due * 1000, c->went * 1000, done * 1000, latency, status);
                }
                completed++;
                if (status < 200 || status > 299) non2xx++;
                c->busy = 0;
                idle[idle_count++] = (int)(c - connections);
            }
        }
    }
    if (slow_file) fclose(slow_file);
    double ran = now_seconds() - start;  // to the last answer: a server that falls behind reaches less
    qsort(latencies, completed, sizeof *latencies, compare);
#define AT(p) (completed ? latencies[(size_t)((double)(completed - 1) * (p))] : 0.0)
    printf("RESULT asked=%.0f reached=%.0f sent=%zu completed=%zu errors=%zu non2xx=%zu backlog=%zu "
           "p50_ms=%.3f p90_ms=%.3f p99_ms=%.3f p999_ms=%.3f max_ms=%.3f\n",
           rate, (double)completed / ran, next, completed, errors, non2xx, total - completed,
           AT(0.5), AT(0.9), AT(0.99), AT(0.999), completed ? latencies[completed - 1] : 0.0);
    return 0;
}
