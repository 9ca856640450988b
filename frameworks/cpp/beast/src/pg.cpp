#include "pg.hpp"

#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace pg {

namespace {

using Descriptor = asio::posix::stream_descriptor;

std::string message(PGconn* conn) {
  std::string text = PQerrorMessage(conn);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

}  // namespace

Connection::Connection(asio::io_context& io, const std::string& conninfo, const std::vector<Statement>& statements)
    : conn_(PQconnectdb(conninfo.c_str())), socket_(io) {
  if (!conn_ || PQstatus(conn_.get()) != CONNECTION_OK) {
    throw Error("cannot connect to DATABASE_URL: " + (conn_ ? message(conn_.get()) : std::string("out of memory")));
  }
  std::vector<Statement> all = {{"begin", "BEGIN"}, {"commit", "COMMIT"}, {"rollback", "ROLLBACK"}};
  all.insert(all.end(), statements.begin(), statements.end());
  for (const Statement& statement : all) {
    Result prepared(PQprepare(conn_.get(), statement.name, statement.sql, 0, nullptr));
    if (PQresultStatus(prepared.get()) != PGRES_COMMAND_OK) {
      throw Error(std::string("cannot prepare ") + statement.sql + ": " + message(conn_.get()));
    }
  }
  // From here on libpq never blocks: writes that do not fit are finished by PQflush on writability.
  if (PQsetnonblocking(conn_.get(), 1) != 0) throw Error("PQsetnonblocking: " + message(conn_.get()));
  socket_.assign(PQsocket(conn_.get()));
}

Connection::~Connection() {
  // The socket belongs to libpq, which closes it in PQfinish; asio must only forget it.
  socket_.release();
}

asio::awaitable<Result> Connection::execute(const char* statement, std::span<const char* const> params) {
  PGconn* conn = conn_.get();
  if (!PQsendQueryPrepared(conn, statement, static_cast<int>(params.size()), params.data(), nullptr, nullptr, 0)) {
    throw Error(std::string(statement) + ": " + message(conn));
  }
  for (int pending; (pending = PQflush(conn)) != 0;) {
    if (pending < 0) throw Error(std::string(statement) + ": " + message(conn));
    co_await socket_.async_wait(Descriptor::wait_write, asio::use_awaitable);
  }
  // A prepared statement yields one result, then a null one that says the connection is free again.
  Result last;
  std::string failure;
  for (;;) {
    while (PQisBusy(conn)) {
      co_await socket_.async_wait(Descriptor::wait_read, asio::use_awaitable);
      if (!PQconsumeInput(conn)) throw Error(std::string(statement) + ": " + message(conn));
    }
    Result result(PQgetResult(conn));
    if (!result) break;
    const ExecStatusType status = PQresultStatus(result.get());
    if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK && failure.empty()) {
      failure = PQresultErrorMessage(result.get());
    }
    last = std::move(result);
  }
  if (!failure.empty()) {
    while (!failure.empty() && failure.back() == '\n') failure.pop_back();
    throw Error(std::string(statement) + ": " + failure);
  }
  co_return last;
}

asio::awaitable<void> Connection::rollback_if_open() {
  const PGTransactionStatusType state = PQtransactionStatus(conn_.get());
  if (state == PQTRANS_INTRANS || state == PQTRANS_INERROR) co_await execute("rollback");
}

Pool::Pool(asio::io_context& io, const std::string& conninfo, int size, const std::vector<Statement>& statements)
    : io_(io) {
  for (int i = 0; i < size; ++i) {
    connections_.push_back(std::make_unique<Connection>(io, conninfo, statements));
    idle_.push_back(connections_.back().get());
  }
}

asio::awaitable<Pool::Lease> Pool::acquire() {
  if (!idle_.empty()) {
    Connection* conn = idle_.back();
    idle_.pop_back();
    co_return Lease(this, conn);
  }
  Waiter waiter{asio::steady_timer(io_, asio::steady_timer::time_point::max())};
  waiters_.push_back(&waiter);
  boost::system::error_code cancelled;  // the expected wake-up: release() cancels the timer
  co_await waiter.wakeup.async_wait(asio::redirect_error(asio::use_awaitable, cancelled));
  co_return Lease(this, waiter.granted);
}

void Pool::release(Connection* conn) {
  if (waiters_.empty()) {
    idle_.push_back(conn);
    return;
  }
  Waiter* next = waiters_.front();
  waiters_.pop_front();
  next->granted = conn;
  next->wakeup.cancel();
}

}  // namespace pg
