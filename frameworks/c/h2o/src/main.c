/* WORKERS threads, each with its own h2o event loop and its own SO_REUSEPORT listener on HOST:PORT. */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <openssl/ssl.h>
#include "app.h"

static h2o_globalconf_t config;
static SSL_CTX *ssl_ctx;
static const char *host, *port;

static const char *env(const char *name, const char *fallback)
{
    const char *v = getenv(name);
    return v != NULL && *v != '\0' ? v : fallback;
}

static int open_listener(void)
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE}, *ai;
    int fd, on = 1, r;
    if ((r = getaddrinfo(host, port, &hints, &ai)) != 0) {
        fprintf(stderr, "getaddrinfo %s:%s: %s\n", host, port, gai_strerror(r));
        return -1;
    }
    fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd == -1 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on)) != 0 ||
        setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &on, sizeof(on)) != 0 ||
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on)) != 0 || bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 ||
        listen(fd, H2O_SOMAXCONN) != 0) {
        fprintf(stderr, "listen on %s:%s: %s\n", host, port, strerror(errno));
        freeaddrinfo(ai);
        return -1;
    }
    freeaddrinfo(ai);
    return fd;
}

static void on_accept(h2o_socket_t *listener, const char *err)
{
    app_thread_t *t = listener->data;
    h2o_socket_t *sock;
    if (err != NULL)
        return;
    if ((sock = h2o_evloop_socket_accept(listener)) != NULL)
        h2o_accept(&t->accept_ctx, sock);
}

static void *thread_main(void *arg)
{
    app_thread_t *t = arg;
    h2o_socket_t *listener;
    int fd;

    h2o_context_init(&t->ctx, h2o_evloop_create(), &config);
    t->accept_ctx.ctx = &t->ctx;
    t->accept_ctx.hosts = config.hosts;
    t->accept_ctx.ssl_ctx = ssl_ctx;
    h2o_linklist_init_anchor(&t->cache_waiters);
    if ((fd = open_listener()) == -1 || db_pool_open(t, t->db_conns) != 0)
        exit(1);
    listener = h2o_evloop_socket_create(t->ctx.loop, fd, H2O_SOCKET_FLAG_DONT_READ);
    listener->data = t;
    h2o_socket_read_start(listener, on_accept);
    while (h2o_evloop_run(t->ctx.loop, INT32_MAX) == 0)
        ;
    return NULL;
}

/* TLS as h2o's own server sets it up: the certificate chain and key, ALPN offering h2 (HTTP/1.1 otherwise). */
static SSL_CTX *setup_tls(const char *cert, const char *key)
{
    SSL_CTX *c = SSL_CTX_new(TLS_server_method());
    SSL_CTX_set_min_proto_version(c, TLS1_2_VERSION);
    SSL_CTX_set_options(c, SSL_OP_NO_COMPRESSION | SSL_OP_CIPHER_SERVER_PREFERENCE);
    if (SSL_CTX_use_certificate_chain_file(c, cert) != 1 || SSL_CTX_use_PrivateKey_file(c, key, SSL_FILETYPE_PEM) != 1) {
        fprintf(stderr, "cannot load TLS_CERT %s / TLS_KEY %s\n", cert, key);
        exit(1);
    }
    h2o_ssl_register_alpn_protocols(c, h2o_http2_alpn_protocols);
    return c;
}

int main(void)
{
    int workers = atoi(env("WORKERS", "1")), pool_total = atoi(env("DB_POOL_TOTAL", "0"));
    const char *cert = env("TLS_CERT", NULL), *key = env("TLS_KEY", NULL);
    h2o_hostconf_t *hostconf;
    app_thread_t *threads;

    if (workers < 1)
        workers = 1;
    host = env("HOST", "127.0.0.1");
    port = env("PORT", "8080");
    signal(SIGPIPE, SIG_IGN);

    h2o_config_init(&config);
    hostconf = h2o_config_register_host(&config, h2o_iovec_init(H2O_STRLIT("default")), 65535);
    app_register_handlers(hostconf, env("STATIC_DIR", "."));
    if (cert != NULL || key != NULL) {
        if (cert == NULL || key == NULL) {
            fprintf(stderr, "TLS_CERT and TLS_KEY must be set together\n");
            return 1;
        }
        ssl_ctx = setup_tls(cert, key);
    }

    threads = calloc(workers, sizeof(*threads));
    for (int i = 0; i < workers; ++i) {
        /* DB_POOL_TOTAL connections in all, spread over the threads (each needs one to serve the database). */
        threads[i].db_conns = pool_total / workers + (i < pool_total % workers);
        if (threads[i].db_conns < 1)
            threads[i].db_conns = 1;
        threads[i].rng = (uint64_t)time(NULL) * 6364136223846793005ULL + (uint64_t)getpid() + 0x9e3779b97f4a7c15ULL * (i + 1);
        if (pthread_create(&threads[i].tid, NULL, thread_main, &threads[i]) != 0) {
            perror("pthread_create");
            return 1;
        }
    }
    for (int i = 0; i < workers; ++i)
        pthread_join(threads[i].tid, NULL);
    return 0;
}
