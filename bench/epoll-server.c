/* A minimal single-threaded epoll HTTP/1.1 server for benchmarking load generators, not servers:
 * every request (anything ending in an empty line) gets the same 13-byte plaintext answer, pipelined
 * requests included, so the server does as little as possible per request.
 * Usage: epoll-server PORT SECONDS   (listens on 127.0.0.1, exits after SECONDS) */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static const char RESPONSE[] =
    "HTTP/1.1 200 OK\r\nContent-Length: 13\r\nContent-Type: text/plain\r\n\r\nHello, World!";
#define RESPONSE_LEN (sizeof(RESPONSE) - 1)
#define MAX_FDS 65536
#define BATCH 64 /* answers written per write() at most */

/* per connection: how much of "\r\n\r\n" the previous read ended with */
static unsigned char matched[MAX_FDS];
static char out[RESPONSE_LEN * BATCH];

static void close_fd(int fd) {
    matched[fd] = 0;
    close(fd);
}

/* Counts request ends in buf, carrying a partial "\r\n\r\n" across reads. */
static int count_requests(int fd, const char *buf, ssize_t n) {
    int count = 0;
    unsigned char m = matched[fd];
    for (ssize_t i = 0; i < n; i++) {
        char c = buf[i];
        if (c == '\r') m = (m == 2) ? 3 : 1;
        else if (c == '\n' && (m == 1 || m == 3)) m++;
        else m = 0;
        if (m == 4) { count++; m = 0; }
    }
    matched[fd] = m;
    return count;
}

static int answer(int fd, int count) {
    while (count > 0) {
        int now = count < BATCH ? count : BATCH;
        size_t len = (size_t)now * RESPONSE_LEN, off = 0;
        while (off < len) { /* the client reads as it writes; a full send buffer is rare and brief */
            ssize_t w = send(fd, out + off, len - off, MSG_NOSIGNAL); /* a gone client must not kill us */
            if (w > 0) off += (size_t)w;
            else if (w < 0 && (errno == EAGAIN || errno == EINTR)) continue;
            else return -1;
        }
        count -= now;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: %s PORT SECONDS\n", argv[0]); return 2; }
    int port = atoi(argv[1]), seconds = atoi(argv[2]);
    if (port <= 0 || port > 65535 || seconds <= 0) { fprintf(stderr, "bad PORT or SECONDS\n"); return 2; }
    for (int i = 0; i < BATCH; i++) memcpy(out + i * RESPONSE_LEN, RESPONSE, RESPONSE_LEN);

    int lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0), one = 1;
    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port),
                               .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (bind(lfd, (struct sockaddr *)&addr, sizeof addr) || listen(lfd, 4096)) { perror("bind/listen"); return 1; }
    int ep = epoll_create1(0);
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = lfd}, events[512];
    epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &ev);
    time_t end = time(NULL) + seconds;
    char buf[65536];
    while (time(NULL) < end) {
        int n = epoll_wait(ep, events, 512, 100);
        for (int i = 0; i < n; i++) {
            int fd = events[i].data.fd;
            if (fd == lfd) {
                int c;
                while ((c = accept4(lfd, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
                    if (c >= MAX_FDS) { close(c); continue; }
                    setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                    struct epoll_event cev = {.events = EPOLLIN, .data.fd = c};
                    epoll_ctl(ep, EPOLL_CTL_ADD, c, &cev);
                }
                continue;
            }
            ssize_t r = read(fd, buf, sizeof buf);
            if (r > 0) {
                if (answer(fd, count_requests(fd, buf, r)) < 0) close_fd(fd);
            } else if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
                close_fd(fd);
            }
        }
    }
    return 0;
}
