// libpq's asynchronous API on the server's asio io_context. Each connection has a strand of its own: a job
// (one request's statements) is posted to it from whichever thread runs the handler, sent into the
// connection's pipeline at once (libpq pipeline mode: several requests' statements in flight on one
// connection, results in order), and its results are read when the socket is readable, on that strand.
#pragma once

#include <asio.hpp>
#include <libpq-fe.h>

#include <atomic>
#include <deque>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace pg {

class Job {
public:
    virtual ~Job() = default;
    // Queues the statements and the pipeline syncs that close them; returns how many syncs.
    virtual int send(PGconn* c) = 0;
    virtual void on_result(int /*index*/, const PGresult* /*r*/) {}
    // On the connection's strand, after the last sync; `failed` when any statement failed.
    virtual void done(bool failed) = 0;
};

class Connection {
public:
    Connection(asio::io_context& io, const char* const (*statements)[2], size_t count)
        : strand_(asio::make_strand(io)), socket_(strand_)
    {
        pg_ = PQconnectdb("");
        if (PQstatus(pg_) != CONNECTION_OK)
            throw std::runtime_error(std::string("database connection: ") + PQerrorMessage(pg_));
        for (size_t i = 0; i < count; ++i) {
            PGresult* r = PQprepare(pg_, statements[i][0], statements[i][1], 0, nullptr);
            bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
            std::string error = ok ? "" : PQresultErrorMessage(r);
            PQclear(r);
            if (!ok)
                throw std::runtime_error(std::string("prepare ") + statements[i][0] + ": " + error);
        }
        if (PQsetnonblocking(pg_, 1) != 0 || !PQenterPipelineMode(pg_))
            throw std::runtime_error(std::string("pipeline mode: ") + PQerrorMessage(pg_));
        socket_.assign(PQsocket(pg_));
    }

    // From any thread.
    void submit(std::unique_ptr<Job> job)
    {
        asio::post(strand_, [this, job = std::move(job)]() mutable { start(std::move(job)); });
    }

    // On the strand (from a job's done()): the next job of the same request on the same connection.
    void start(std::unique_ptr<Job> job)
    {
        Pending p{std::move(job), 0, 0, false};
        p.syncs = p.job->send(pg_);
        jobs_.push_back(std::move(p));
        flush();
        wait_readable();
    }

private:
    struct Pending {
        std::unique_ptr<Job> job;
        int syncs, index;
        bool failed;
    };

    void fail(const char* what)
    {
        // the jobs in its pipeline cannot finish without the connection: the process stops
        std::fprintf(stderr, "%s: %s", what, PQerrorMessage(pg_));
        std::exit(1);
    }

    void flush()
    {
        int r = PQflush(pg_);
        if (r < 0)
            fail("database write");
        if (r == 1 && !writing_) {
            writing_ = true;
            socket_.async_wait(asio::posix::stream_descriptor::wait_write, [this](const asio::error_code&) {
                writing_ = false;
                flush();
            });
        }
    }

    void wait_readable()
    {
        if (reading_ || jobs_.empty())
            return;
        reading_ = true;
        socket_.async_wait(asio::posix::stream_descriptor::wait_read, [this](const asio::error_code& ec) {
            reading_ = false;
            if (ec)
                fail("database socket");
            on_readable();
            wait_readable();
        });
    }

    void on_readable()
    {
        if (!PQconsumeInput(pg_))
            fail("database connection");
        flush();
        while (!jobs_.empty() && !PQisBusy(pg_)) {
            PGresult* r = PQgetResult(pg_);
            if (r == nullptr)
                continue;  // the end of one statement's results
            Pending& p = jobs_.front();
            switch (PQresultStatus(r)) {
            case PGRES_PIPELINE_SYNC:
                if (--p.syncs == 0) {
                    Pending finished = std::move(p);
                    jobs_.pop_front();
                    finished.job->done(finished.failed);
                }
                break;
            case PGRES_TUPLES_OK:
            case PGRES_COMMAND_OK:
                p.job->on_result(p.index++, r);
                break;
            case PGRES_PIPELINE_ABORTED:
                p.failed = true;
                p.index++;
                break;
            default:
                std::fprintf(stderr, "database: %s", PQresultErrorMessage(r));
                p.failed = true;
                p.index++;
            }
            PQclear(r);
        }
    }

    asio::strand<asio::io_context::executor_type> strand_;
    asio::posix::stream_descriptor socket_;
    PGconn* pg_ = nullptr;
    std::deque<Pending> jobs_;
    bool reading_ = false, writing_ = false;
};

// DB_POOL_TOTAL connections for the process; jobs go round robin.
class Pool {
public:
    Pool(asio::io_context& io, int size, const char* const (*statements)[2], size_t count)
    {
        for (int i = 0; i < size; ++i)
            conns_.push_back(std::make_unique<Connection>(io, statements, count));
    }
    Connection& pick() { return *conns_[next_.fetch_add(1, std::memory_order_relaxed) % conns_.size()]; }

private:
    std::vector<std::unique_ptr<Connection>> conns_;
    std::atomic<size_t> next_{0};
};

inline void send_prepared(PGconn* c, const char* name, int nparams, const char* const* params)
{
    if (!PQsendQueryPrepared(c, name, nparams, params, nullptr, nullptr, 0)) {
        std::fprintf(stderr, "%s: %s", name, PQerrorMessage(c));
        std::exit(1);
    }
}

inline void sync(PGconn* c)
{
    if (!PQpipelineSync(c)) {
        std::fprintf(stderr, "pipeline sync: %s", PQerrorMessage(c));
        std::exit(1);
    }
}

}  // namespace pg
