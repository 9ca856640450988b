/* WebSocket echo on a connection libmicrohttpd has upgraded (MHD_create_response_for_upgrade). The library
 * hands over the raw socket and leaves the protocol to the application, as its websocket example does: the
 * frames (RFC 6455) are read and echoed by a thread of the connection's own, since the upgrade callback runs
 * on MHD's event loop and must not block. */
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <microhttpd.h>
#include "ws.h"

#define MAX_PAYLOAD (16u << 20)

typedef struct {
    struct MHD_UpgradeResponseHandle *urh;
    MHD_socket sock;
    char *pending; /* bytes MHD read past the request head, consumed first */
    size_t pending_len, pending_pos;
} ws_conn_t;

static int read_exact(ws_conn_t *c, void *dst, size_t n)
{
    char *out = dst;
    while (n > 0) {
        if (c->pending_pos < c->pending_len) {
            size_t k = c->pending_len - c->pending_pos < n ? c->pending_len - c->pending_pos : n;
            memcpy(out, c->pending + c->pending_pos, k);
            c->pending_pos += k;
            out += k;
            n -= k;
            continue;
        }
        ssize_t r = recv(c->sock, out, n, 0);
        if (r <= 0)
            return -1;
        out += r;
        n -= (size_t)r;
    }
    return 0;
}

static int write_all(ws_conn_t *c, const void *src, size_t n)
{
    const char *p = src;
    while (n > 0) {
        ssize_t w = send(c->sock, p, n, MSG_NOSIGNAL);
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* A server's frame: unmasked, with the shortest length form. */
static int send_frame(ws_conn_t *c, unsigned first_byte, const unsigned char *payload, uint64_t len)
{
    unsigned char head[10];
    size_t h = 0;
    head[h++] = (unsigned char)first_byte;
    if (len < 126) {
        head[h++] = (unsigned char)len;
    } else if (len <= 0xffff) {
        head[h++] = 126;
        head[h++] = (unsigned char)(len >> 8);
        head[h++] = (unsigned char)len;
    } else {
        head[h++] = 127;
        for (int i = 7; i >= 0; --i)
            head[h++] = (unsigned char)(len >> (8 * i));
    }
    return write_all(c, head, h) == 0 && write_all(c, payload, len) == 0 ? 0 : -1;
}

/* Echoes data frames as they come (a fragmented message goes back in the same fragments), answers pings,
 * and returns after the close handshake or when the peer goes away. */
static void serve(ws_conn_t *c)
{
    unsigned char head[2], ext[8], mask[4];
    for (;;) {
        if (read_exact(c, head, 2) != 0)
            return;
        unsigned opcode = head[0] & 0x0f;
        uint64_t len = head[1] & 0x7f;
        if (!(head[1] & 0x80))
            return; /* clients must mask (RFC 6455, 5.1) */
        if (len == 126 || len == 127) {
            size_t k = len == 126 ? 2 : 8;
            if (read_exact(c, ext, k) != 0)
                return;
            len = 0;
            for (size_t i = 0; i < k; ++i)
                len = len << 8 | ext[i];
        }
        if (len > MAX_PAYLOAD || read_exact(c, mask, 4) != 0)
            return;
        unsigned char *payload = malloc(len ? len : 1);
        if (read_exact(c, payload, len) != 0) {
            free(payload);
            return;
        }
        for (uint64_t i = 0; i < len; ++i)
            payload[i] ^= mask[i & 3];
        int rc = 0, closing = 0;
        switch (opcode) {
        case 0x0: case 0x1: case 0x2: rc = send_frame(c, head[0] & 0x8f, payload, len); break;
        case 0x9: rc = send_frame(c, 0x8a, payload, len); break; /* pong with the ping's data */
        case 0x8: send_frame(c, 0x88, payload, len < 2 ? len : 2); closing = 1; break;
        default: break; /* a pong, or a reserved opcode: nothing to answer */
        }
        free(payload);
        if (rc != 0 || closing)
            return;
    }
}

static void *run(void *arg)
{
    ws_conn_t *c = arg;
    serve(c);
    MHD_upgrade_action(c->urh, MHD_UPGRADE_ACTION_CLOSE);
    free(c->pending);
    free(c);
    return NULL;
}

void ws_start(struct MHD_UpgradeResponseHandle *urh, MHD_socket sock, const char *extra, size_t extra_len)
{
    ws_conn_t *c = calloc(1, sizeof(*c));
    pthread_t tid;
    pthread_attr_t attr;
    c->urh = urh;
    c->sock = sock;
    if (extra_len > 0) {
        c->pending = malloc(extra_len);
        memcpy(c->pending, extra, extra_len);
        c->pending_len = extra_len;
    }
    /* MHD hands the socket over non-blocking; this thread reads it blocking */
    fcntl(sock, F_SETFL, fcntl(sock, F_GETFL) & ~O_NONBLOCK);
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attr, 256 * 1024);
    if (pthread_create(&tid, &attr, run, c) != 0) {
        MHD_upgrade_action(urh, MHD_UPGRADE_ACTION_CLOSE);
        free(c->pending);
        free(c);
    }
    pthread_attr_destroy(&attr);
}
