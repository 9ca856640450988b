// PostgreSQL through libpq's asynchronous API, driven by the worker's io_context: a query is sent with
// PQsendQueryPrepared and the coroutine sleeps on the socket's readiness instead of blocking the thread.
#pragma once

#include <libpq-fe.h>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>

#include <deque>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace pg {

namespace asio = boost::asio;

struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct ResultDeleter {
  void operator()(PGresult* result) const { PQclear(result); }
};
using Result = std::unique_ptr<PGresult, ResultDeleter>;

// A statement every connection prepares once, executed later by name.
struct Statement {
  const char* name;
  const char* sql;
};

class Connection {
 public:
  // Connects and prepares `statements` plus "begin", "commit" and "rollback", synchronously: this runs
  // before the io_context serves anything.
  Connection(asio::io_context& io, const std::string& conninfo, const std::vector<Statement>& statements);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Runs a prepared statement; the result of the last command, or pg::Error with the server's message.
  // (Callers pass a std::array: GCC 12 cannot keep a braced list's array alive across a co_await.)
  asio::awaitable<Result> execute(const char* statement, std::span<const char* const> params = {});

  // Rolls back a transaction an error left open, so the connection can go back to the pool.
  asio::awaitable<void> rollback_if_open();

 private:
  struct ConnDeleter {
    void operator()(PGconn* conn) const { PQfinish(conn); }
  };
  std::unique_ptr<PGconn, ConnDeleter> conn_;
  asio::posix::stream_descriptor socket_;
};

// One worker's connections. Only that worker's thread touches it, so it needs no lock.
class Pool {
 public:
  Pool(asio::io_context& io, const std::string& conninfo, int size, const std::vector<Statement>& statements);

  // A connection on loan; it returns to the pool (or to the first waiter) when the lease ends.
  class Lease {
   public:
    Lease(Pool* pool, Connection* conn) : pool_(pool), conn_(conn) {}
    Lease(Lease&& other) noexcept : pool_(other.pool_), conn_(other.conn_) { other.conn_ = nullptr; }
    Lease& operator=(Lease&&) = delete;
    ~Lease() {
      if (conn_ != nullptr) pool_->release(conn_);
    }
    Connection* operator->() const { return conn_; }
    Connection& operator*() const { return *conn_; }

   private:
    Pool* pool_;
    Connection* conn_;
  };

  // Waits, first come first served, while every connection is busy.
  asio::awaitable<Lease> acquire();

 private:
  // A coroutine parked until release() hands it a connection and cancels its timer.
  struct Waiter {
    asio::steady_timer wakeup;
    Connection* granted = nullptr;
  };

  void release(Connection* conn);

  asio::io_context& io_;
  std::vector<std::unique_ptr<Connection>> connections_;
  std::vector<Connection*> idle_;
  std::deque<Waiter*> waiters_;
};

}  // namespace pg
