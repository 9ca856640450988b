// RESTinio 0.6.16 on standalone Asio: restinio::run on a thread pool of WORKERS threads sharing one
// io_context (on_thread_pool, the form RESTinio's documentation gives for using several cores), its express
// router, nlohmann/json, RESTinio's sendfile for static and its WebSocket (restinio::websocket::basic).
// Handlers answer asynchronously: database work is a job on a libpq connection driven by the same
// io_context (src/pg.hpp), and the response is completed from the job's strand.
#include <restinio/all.hpp>
#include <restinio/tls.hpp>
#include <restinio/websocket/websocket.hpp>

#include <nlohmann/json.hpp>
#include <openssl/evp.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <mutex>
#include <random>
#include <sys/random.h>
#include <unistd.h>

#include "pg.hpp"

namespace rws = restinio::websocket::basic;
using json = nlohmann::json;
using router_t = restinio::router::express_router_t<>;

namespace {

constexpr int world_rows = 10000;
constexpr int max_queries = 500;

const char* env(const char* name, const char* fallback)
{
    const char* v = std::getenv(name);
    return v != nullptr && *v != '\0' ? v : fallback;
}

const char* const statements[][2] = {
    {"world_select", "SELECT id, randomnumber FROM world WHERE id = $1"},
    {"world_update", "UPDATE world SET randomnumber = $2 WHERE id = $1"},
    {"fortune_all", "SELECT id, message FROM fortune"},
    // an unknown visitor's row starts at 1; a known one is read and written under its row lock
    {"session_bump", "INSERT INTO usersessions AS s (uid, data) VALUES ($1, '{\"count\":1}') ON CONFLICT (uid) "
                     "DO UPDATE SET data = '{\"count\":' || ((s.data::json ->> 'count')::int + 1) || '}' RETURNING data"},
};

struct Row {
    int id, random_number;
};

std::string hash_file, static_dir;
std::unique_ptr<pg::Pool> pool;
std::vector<Row> world_cache;  // read once at start, only read afterwards

int random_id()
{
    thread_local std::mt19937 rng{std::random_device{}()};
    thread_local std::uniform_int_distribution<int> dist(1, world_rows);
    return dist(rng);
}

// Every answer: RESTinio's Date field (append_header_date_field, an IMF-fixdate) and its name as Server.
void reply(const restinio::request_handle_t& req, restinio::http_status_line_t status, const char* type, std::string body)
{
    req->create_response(std::move(status))
        .append_header(restinio::http_field::server, "RESTinio")
        .append_header_date_field()
        .append_header(restinio::http_field::content_type, type)
        .set_body(std::move(body))
        .done();
}

constexpr const char* text_type = "text/plain; charset=utf-8";
constexpr const char* json_type = "application/json";

void reply_db_error(const restinio::request_handle_t& req)
{
    reply(req, restinio::status_internal_server_error(), text_type, "database error\n");
}

json row_json(const Row& r) { return json{{"id", r.id}, {"randomNumber", r.random_number}}; }

json rows_json(const std::vector<Row>& rows)
{
    json a = json::array();
    for (const auto& r : rows)
        a.push_back(row_json(r));
    return a;
}

// TechEmpower's count: missing, empty, not an integer or below 1 is 1; above 500 is 500.
int count_param(const restinio::request_handle_t& req, const char* name)
{
    const auto qp = restinio::parse_query(req->header().query());
    auto v = qp.get_param(name);
    if (!v || v->empty())
        return 1;
    std::string s(v->data(), v->size());
    char* end;
    long n = std::strtol(s.c_str(), &end, 10);
    if (*end != '\0' || n < 1)
        return 1;
    return n > max_queries ? max_queries : static_cast<int>(n);
}

enum class Mode { single, queries, updates };

// db, queries and updates: N selects pipelined under one sync; updates then writes each row under a sync of
// its own (autocommitted, so concurrent requests never wait on each other's row locks).
class WorldJob : public pg::Job {
public:
    WorldJob(restinio::request_handle_t req, int n, Mode mode, pg::Connection& conn)
        : req_(std::move(req)), rows_(n), mode_(mode), conn_(conn)
    {
        for (auto& r : rows_)
            r.id = random_id();
    }

    int send(PGconn* c) override
    {
        if (writing_) {
            for (const auto& r : rows_) {
                std::string id = std::to_string(r.id), number = std::to_string(r.random_number);
                const char* p[2] = {id.c_str(), number.c_str()};
                pg::send_prepared(c, "world_update", 2, p);
                pg::sync(c);
            }
            return static_cast<int>(rows_.size());
        }
        for (const auto& r : rows_) {
            std::string id = std::to_string(r.id);
            const char* p = id.c_str();
            pg::send_prepared(c, "world_select", 1, &p);
        }
        pg::sync(c);
        return 1;
    }

    void on_result(int index, const PGresult* r) override
    {
        if (!writing_ && index < static_cast<int>(rows_.size()) && PQntuples(r) == 1)
            rows_[index].random_number = std::atoi(PQgetvalue(r, 0, 1));
    }

    void done(bool failed) override
    {
        if (failed)
            return reply_db_error(req_);
        if (mode_ == Mode::updates && !writing_) {
            for (auto& r : rows_)
                r.random_number = random_id();
            // an id drawn twice is written twice, the last number standing: the answer says the same
            for (size_t i = 0; i < rows_.size(); ++i)
                for (size_t j = i + 1; j < rows_.size(); ++j)
                    if (rows_[j].id == rows_[i].id)
                        rows_[i].random_number = rows_[j].random_number;
            auto next = std::make_unique<WorldJob>(std::move(*this));
            next->writing_ = true;
            conn_.start(std::move(next));
            return;
        }
        reply(req_, restinio::status_ok(), json_type, (mode_ == Mode::single ? row_json(rows_[0]) : rows_json(rows_)).dump());
    }

private:
    restinio::request_handle_t req_;
    std::vector<Row> rows_;
    Mode mode_;
    pg::Connection& conn_;
    bool writing_ = false;
};

void start_world(const restinio::request_handle_t& req, int n, Mode mode)
{
    auto& conn = pool->pick();
    conn.submit(std::make_unique<WorldJob>(req, n, mode, conn));
}

std::string escape_html(const std::string& s)
{
    std::string out;
    out.reserve(s.size() + 16);
    for (char ch : s) {
        switch (ch) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&#39;"; break;
        default: out += ch;
        }
    }
    return out;
}

// RESTinio has no template engine: the page is written here, every message HTML-escaped.
class FortunesJob : public pg::Job {
public:
    explicit FortunesJob(restinio::request_handle_t req) : req_(std::move(req)) {}
    int send(PGconn* c) override
    {
        pg::send_prepared(c, "fortune_all", 0, nullptr);
        pg::sync(c);
        return 1;
    }
    void on_result(int, const PGresult* r) override
    {
        for (int i = 0; i < PQntuples(r); ++i)
            rows_.emplace_back(std::atoi(PQgetvalue(r, i, 0)), PQgetvalue(r, i, 1));
    }
    void done(bool failed) override
    {
        if (failed)
            return reply_db_error(req_);
        rows_.emplace_back(0, "Additional fortune added at request time.");
        std::sort(rows_.begin(), rows_.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
        std::string page = "<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>";
        for (const auto& [id, message] : rows_)
            page += "<tr><td>" + std::to_string(id) + "</td><td>" + escape_html(message) + "</td></tr>";
        page += "</table></body></html>";
        reply(req_, restinio::status_ok(), "text/html; charset=utf-8", std::move(page));
    }

private:
    restinio::request_handle_t req_;
    std::vector<std::pair<int, std::string>> rows_;
};

class SessionJob : public pg::Job {
public:
    SessionJob(restinio::request_handle_t req, std::string uid) : req_(std::move(req)), uid_(std::move(uid)) {}
    int send(PGconn* c) override
    {
        const char* p = uid_.c_str();
        pg::send_prepared(c, "session_bump", 1, &p);
        pg::sync(c);
        return 1;
    }
    void on_result(int, const PGresult* r) override
    {
        if (PQntuples(r) == 1)
            data_ = PQgetvalue(r, 0, 0);
    }
    void done(bool failed) override
    {
        json parsed = json::parse(data_, nullptr, false);
        if (failed || !parsed.is_object() || !parsed.contains("count") || !parsed["count"].is_number_integer())
            return reply_db_error(req_);
        req_->create_response()
            .append_header(restinio::http_field::server, "RESTinio")
            .append_header_date_field()
            .append_header(restinio::http_field::content_type, text_type)
            .append_header(restinio::http_field::set_cookie, "sid=" + uid_ + "; Path=/; HttpOnly")
            .set_body("Count is " + std::to_string(parsed["count"].get<int>()))
            .done();
    }

private:
    restinio::request_handle_t req_;
    std::string uid_, data_;
};

bool is_uid(const std::string& s)
{
    return s.size() == 32 && std::all_of(s.begin(), s.end(), [](char ch) { return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f'); });
}

// The sid cookie when it is one of ours (32 hex digits), else a new random id. RESTinio 0.6 parses no Cookie
// header, so the field is searched here.
std::string visitor_id(const restinio::request_handle_t& req)
{
    std::string cookie = req->header().get_field_or(restinio::http_field::cookie, "");
    for (size_t at = cookie.find("sid="); at != std::string::npos; at = cookie.find("sid=", at + 4)) {
        if (at > 0 && cookie[at - 1] != ' ' && cookie[at - 1] != ';')
            continue;
        std::string value = cookie.substr(at + 4, cookie.find(';', at) == std::string::npos ? std::string::npos : cookie.find(';', at) - at - 4);
        if (is_uid(value))
            return value;
    }
    static const char hex[] = "0123456789abcdef";
    unsigned char r[16];
    while (getrandom(r, sizeof(r), 0) != sizeof(r))
        ;
    std::string uid;
    for (unsigned char b : r) {
        uid += hex[b >> 4];
        uid += hex[b & 15];
    }
    return uid;
}

std::string hash_chain(long n)
{
    static const char hex[] = "0123456789abcdef";
    // read from disk on every request, as the contract asks
    int fd = open(hash_file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd == -1)
        return {};
    unsigned char d[EVP_MAX_MD_SIZE], chunk[16384];
    unsigned len;
    ssize_t r;
    EVP_MD_CTX* md = EVP_MD_CTX_new();
    EVP_DigestInit_ex(md, EVP_sha256(), nullptr);
    while ((r = read(fd, chunk, sizeof(chunk))) > 0)
        EVP_DigestUpdate(md, chunk, r);
    close(fd);
    EVP_DigestFinal_ex(md, d, &len);
    for (long i = 1; i < n; ++i) {
        EVP_DigestInit_ex(md, EVP_sha256(), nullptr);
        EVP_DigestUpdate(md, d, 32);
        EVP_DigestFinal_ex(md, d, &len);
    }
    EVP_MD_CTX_free(md);
    std::string out(64, '0');
    for (int i = 0; i < 32; ++i) {
        out[2 * i] = hex[d[i] >> 4];
        out[2 * i + 1] = hex[d[i] & 15];
    }
    return out;
}

// Upgraded connections stay alive while their handle is held here (RESTinio's websocket examples keep
// such a registry); the handlers run on any pool thread, hence the lock.
std::mutex ws_lock;
std::map<std::uint64_t, rws::ws_handle_t> ws_registry;

template <typename Traits>
std::unique_ptr<router_t> make_router()
{
    auto router = std::make_unique<router_t>();
    router->http_get("/plaintext", [](auto req, auto) {
        reply(req, restinio::status_ok(), text_type, "Hello, World!");
        return restinio::request_accepted();
    });
    router->http_get("/json", [](auto req, auto) {
        reply(req, restinio::status_ok(), json_type, json{{"message", "Hello, World!"}}.dump());
        return restinio::request_accepted();
    });
    router->http_get("/db", [](auto req, auto) {
        start_world(req, 1, Mode::single);
        return restinio::request_accepted();
    });
    router->http_get("/queries", [](auto req, auto) {
        start_world(req, count_param(req, "queries"), Mode::queries);
        return restinio::request_accepted();
    });
    router->http_get("/updates", [](auto req, auto) {
        start_world(req, count_param(req, "queries"), Mode::updates);
        return restinio::request_accepted();
    });
    router->http_get("/cached-queries", [](auto req, auto) {
        std::vector<Row> rows(count_param(req, "count"));
        for (auto& r : rows)
            r = world_cache[random_id() - 1];
        reply(req, restinio::status_ok(), json_type, rows_json(rows).dump());
        return restinio::request_accepted();
    });
    router->http_get("/fortunes", [](auto req, auto) {
        pool->pick().submit(std::make_unique<FortunesJob>(req));
        return restinio::request_accepted();
    });
    router->http_get("/session", [](auto req, auto) {
        pool->pick().submit(std::make_unique<SessionJob>(req, visitor_id(req)));
        return restinio::request_accepted();
    });
    router->http_get("/hash", [](auto req, auto) {
        const auto qp = restinio::parse_query(req->header().query());
        auto v = qp.get_param("n");
        std::string s = v ? std::string(v->data(), v->size()) : "";
        char* end = nullptr;
        long n = s.empty() ? 0 : std::strtol(s.c_str(), &end, 10);
        if (n < 1 || n > 100000 || *end != '\0') {
            reply(req, restinio::status_bad_request(), text_type, "n must be an integer from 1 to 100000\n");
            return restinio::request_accepted();
        }
        std::string digest = hash_chain(n);
        if (digest.empty())
            reply(req, restinio::status_internal_server_error(), text_type, "cannot open HASH_FILE\n");
        else
            reply(req, restinio::status_ok(), text_type, std::move(digest));
        return restinio::request_accepted();
    });
    // RESTinio's own file body: restinio::sendfile (sendfile(2) on a plain socket)
    router->http_get("/static/:name", [](auto req, auto params) {
        std::string name{params["name"]};
        bool html = name.size() > 5 && name.compare(name.size() - 5, 5, ".html") == 0;
        try {
            req->create_response()
                .append_header(restinio::http_field::server, "RESTinio")
                .append_header_date_field()
                .append_header(restinio::http_field::content_type, html ? "text/html" : "application/octet-stream")
                .set_body(restinio::sendfile(static_dir + "/" + name))
                .done();
        } catch (const std::exception&) {
            reply(req, restinio::status_not_found(), text_type, "not found\n");
        }
        return restinio::request_accepted();
    });
    router->http_get("/ws", [](auto req, auto) {
        if (req->header().connection() != restinio::http_connection_header_t::upgrade)
            return restinio::request_rejected();
        auto handle = rws::upgrade<Traits>(*req, rws::activation_t::immediate, [](rws::ws_handle_t ws, rws::message_handle_t m) {
            switch (m->opcode()) {
            case rws::opcode_t::text_frame:
            case rws::opcode_t::binary_frame:
            case rws::opcode_t::continuation_frame:
                ws->send_message(*m);
                break;
            case rws::opcode_t::ping_frame: {
                rws::message_t pong{rws::final_frame, rws::opcode_t::pong_frame, m->payload()};
                ws->send_message(pong);
                break;
            }
            case rws::opcode_t::connection_close_frame: {
                std::lock_guard<std::mutex> g(ws_lock);
                ws_registry.erase(ws->connection_id());
                break;
            }
            default:
                break;
            }
        });
        std::lock_guard<std::mutex> g(ws_lock);
        ws_registry.emplace(handle->connection_id(), handle);
        return restinio::request_accepted();
    });
    return router;
}

template <typename Traits>
auto settings(int workers)
{
    return restinio::on_thread_pool<Traits>(workers)
        .address(env("HOST", "127.0.0.1"))
        .port(static_cast<std::uint16_t>(std::atoi(env("PORT", "8080"))))
        .request_handler(make_router<Traits>());
}

using plain_traits = restinio::traits_t<restinio::asio_timer_manager_t, restinio::null_logger_t, router_t>;
using tls_traits = restinio::tls_traits_t<restinio::asio_timer_manager_t, restinio::null_logger_t, router_t>;

void load_world_cache()
{
    PGconn* c = PQconnectdb("");
    PGresult* r = PQstatus(c) == CONNECTION_OK ? PQexec(c, "SELECT id, randomnumber FROM world") : nullptr;
    if (r == nullptr || PQresultStatus(r) != PGRES_TUPLES_OK)
        throw std::runtime_error(std::string("loading world: ") + PQerrorMessage(c));
    world_cache.assign(world_rows, Row{0, 0});
    for (int i = 0; i < PQntuples(r); ++i) {
        int id = std::atoi(PQgetvalue(r, i, 0));
        if (id >= 1 && id <= world_rows)
            world_cache[id - 1] = Row{id, std::atoi(PQgetvalue(r, i, 1))};
    }
    PQclear(r);
    PQfinish(c);
}

}  // namespace

int main()
{
    int workers = std::max(1, std::atoi(env("WORKERS", "1")));
    int pool_size = std::max(1, std::atoi(env("DB_POOL_TOTAL", "1")));
    const char* cert = env("TLS_CERT", nullptr);
    const char* key = env("TLS_KEY", nullptr);
    hash_file = env("HASH_FILE", "hash.bin");
    static_dir = env("STATIC_DIR", ".");
    try {
        asio::io_context io;
        // cached: world read once with a short-lived connection of its own, before the pool opens
        load_world_cache();
        // one process: DB_POOL_TOTAL connections, on the io_context the server's threads run
        pool = std::make_unique<pg::Pool>(io, pool_size, statements, std::size(statements));
        if (cert != nullptr && key != nullptr) {
            asio::ssl::context tls{asio::ssl::context::tls_server};
            tls.set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                            asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 | asio::ssl::context::no_tlsv1_1);
            tls.use_certificate_chain_file(cert);
            tls.use_private_key_file(key, asio::ssl::context::pem);
            restinio::run(io, settings<tls_traits>(workers).tls_context(std::move(tls)));
        } else {
            restinio::run(io, settings<plain_traits>(workers));
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
}
