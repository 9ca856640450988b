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
#include <boost/asio/use_awaitable.hpp>

#include <sys/socket.h>

#include <algorithm>
#include <iostream>
#include <memory>
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

asio::awaitable<void> accept(Worker& worker, tcp::acceptor& acceptor) {
  for (;;) {
    boost::system::error_code ec;
    tcp::socket socket = co_await acceptor.async_accept(asio::redirect_error(asio::use_awaitable, ec));
    if (ec) {
      std::cerr << "accept: " << ec.message() << "\n";  // e.g. out of file descriptors; keep serving
      continue;
    }
    socket.set_option(tcp::no_delay(true));
    asio::co_spawn(acceptor.get_executor(), serve(worker, std::move(socket)), asio::detached);
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

    techempower::load_world_cache(settings.database_url);  // the cached workload's rows, read once at start

    std::vector<std::unique_ptr<Thread>> threads;
    std::random_device seed;
    for (int i = 0; i < settings.workers; ++i) {
      auto thread = std::make_unique<Thread>();
      thread->worker = std::make_unique<Worker>(
          Worker{settings, pg::Pool(thread->io, settings.database_url, connections(i), statements()), std::mt19937(seed())});
      listen(thread->acceptor, endpoint);
      asio::co_spawn(thread->io, accept(*thread->worker, thread->acceptor), asio::detached);
      threads.push_back(std::move(thread));
    }
    std::cerr << "beast: listening on " << endpoint << " with " << settings.workers << " worker threads and "
              << std::max(settings.db_pool, settings.workers) << " PostgreSQL connections\n";

    std::vector<std::jthread> running;
    for (std::size_t i = 1; i < threads.size(); ++i) running.emplace_back([&io = threads[i]->io] { io.run(); });
    threads[0]->io.run();
  } catch (const std::exception& error) {
    std::cerr << "beast: " << error.what() << "\n";
    return 1;
  }
}
