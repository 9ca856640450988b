// webshootout's Boost.Beast server: WORKERS threads, each with its own io_context, its own acceptor on the
// shared port (SO_REUSEPORT lets the kernel spread connections) and its own PostgreSQL connections.
#include "connection.hpp"
#include "settings.hpp"
#include "techempower.hpp"
#include "workloads.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <openssl/ssl.h>
#include <sys/socket.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <optional>
#include <random>
#include <thread>
#include <vector>

namespace asio = boost::asio;
using asio::ip::tcp;

namespace {

using reuse_port = asio::detail::socket_option::boolean<SOL_SOCKET, SO_REUSEPORT>;

// A worker thread's whole world: nothing here is touched by another thread.
struct Thread {
  asio::io_context io{1};  // concurrency hint 1: one thread runs it, so asio can skip its locking
  tcp::acceptor acceptor{io};
  std::unique_ptr<Worker> worker;
};

// Beast's TLS examples' context, from the harness's PEM files. tls_server rather than the examples' tlsv12
// so TLS 1.3 is negotiated as by the other stacks (OpenSSL 3 refuses below 1.2 at its default security level). Beast has no
// HTTP/2, so ALPN selects http/1.1 when the client offers it and nothing otherwise.
std::optional<asio::ssl::context> tls_context(const Settings& settings) {
  if (settings.tls_cert.empty()) return std::nullopt;
  asio::ssl::context context(asio::ssl::context::tls_server);
  context.set_options(asio::ssl::context::default_workarounds);
  context.use_certificate_chain_file(settings.tls_cert);
  context.use_private_key_file(settings.tls_key, asio::ssl::context::pem);
  SSL_CTX_set_alpn_select_cb(
      context.native_handle(),
      [](SSL*, const unsigned char** out, unsigned char* outlen, const unsigned char* in, unsigned int inlen, void*) {
        static constexpr unsigned char http11[] = "\x08http/1.1";
        unsigned char* selected = nullptr;
        if (SSL_select_next_proto(&selected, outlen, http11, sizeof http11 - 1, in, inlen) != OPENSSL_NPN_NEGOTIATED) {
          return SSL_TLSEXT_ERR_NOACK;
        }
        *out = selected;
        return SSL_TLSEXT_ERR_OK;
      },
      nullptr);
  return context;
}

asio::awaitable<void> accept(Worker& worker, tcp::acceptor& acceptor, asio::ssl::context* tls) {
  for (;;) {
    boost::system::error_code ec;
    tcp::socket socket = co_await acceptor.async_accept(asio::redirect_error(asio::use_awaitable, ec));
    if (ec) {
      std::cerr << "accept: " << ec.message() << "\n";  // e.g. out of file descriptors; keep serving
      continue;
    }
    socket.set_option(tcp::no_delay(true));
    if (tls != nullptr) {
      asio::co_spawn(acceptor.get_executor(), serve(worker, std::move(socket), *tls), asio::detached);
    } else {
      asio::co_spawn(acceptor.get_executor(), serve(worker, std::move(socket)), asio::detached);
    }
  }
}

void listen(tcp::acceptor& acceptor, const tcp::endpoint& endpoint) {
  acceptor.open(endpoint.protocol());
  acceptor.set_option(tcp::acceptor::reuse_address(true));
  acceptor.set_option(reuse_port(true));
  acceptor.bind(endpoint);
  acceptor.listen(asio::socket_base::max_listen_connections);
}

}  // namespace

int main() {
  try {
    const Settings settings = Settings::from_environment();
    const tcp::endpoint endpoint(asio::ip::make_address(settings.host), settings.port);
    // The process's DB_POOL_TOTAL connections are split over the threads (each thread's pool is its own, so
    // no lock is needed); a thread gets at least one, so with fewer connections than threads the
    // process opens one per thread.
    const auto connections = [&settings](int thread) {
      return std::max(1, settings.db_pool / settings.workers + (thread < settings.db_pool % settings.workers ? 1 : 0));
    };

    std::optional<asio::ssl::context> tls = tls_context(settings);  // shared by the threads, read-only once made

    techempower::load_world_cache(settings.database_url);  // the cached workload's rows, read once at start

    std::vector<std::unique_ptr<Thread>> threads;
    std::random_device seed;
    for (int i = 0; i < settings.workers; ++i) {
      auto thread = std::make_unique<Thread>();
      thread->worker = std::make_unique<Worker>(
          Worker{settings, pg::Pool(thread->io, settings.database_url, connections(i), statements()), std::mt19937(seed())});
      listen(thread->acceptor, endpoint);
      asio::co_spawn(thread->io, accept(*thread->worker, thread->acceptor, tls ? &*tls : nullptr), asio::detached);
      threads.push_back(std::move(thread));
    }
    std::cerr << "beast: listening on " << endpoint << (tls ? " (TLS)" : "") << " with " << settings.workers
              << " worker threads and " << std::max(settings.db_pool, settings.workers) << " PostgreSQL connections\n";

    std::vector<std::jthread> running;
    for (std::size_t i = 1; i < threads.size(); ++i) running.emplace_back([&io = threads[i]->io] { io.run(); });
    threads[0]->io.run();
  } catch (const std::exception& error) {
    std::cerr << "beast: " << error.what() << "\n";
    return 1;
  }
}
