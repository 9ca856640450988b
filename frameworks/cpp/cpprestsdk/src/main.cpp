// C++ REST SDK (cpprestsdk) 2.10.18: http_listener on its Boost.Asio server, one listener per path (the SDK
// routes a request to the listener whose URI is its longest prefix), cpprest's json::value for JSON and its
// file streams for static. The SDK's thread pool is sized to WORKERS (crossplat::threadpool::
// initialize_with_threads) and runs both the sockets and the handlers; libpq is not integrated with it, so
// the database is a process-wide pool of DB_POOL_TOTAL blocking connections (src/db.c).
#include <cpprest/filestream.h>
#include <cpprest/http_listener.h>
#include <cpprest/json.h>
#include <pplx/threadpool.h>

#include <openssl/evp.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <mutex>
#include <random>
#include <sys/random.h>
#include <unistd.h>
#include <vector>

#include "db.h"

using namespace web;
using namespace web::http;
using web::http::experimental::listener::http_listener;
using web::http::experimental::listener::http_listener_config;

namespace {

const char* env(const char* name, const char* fallback)
{
    const char* v = std::getenv(name);
    return v != nullptr && *v != '\0' ? v : fallback;
}

std::string hash_file, static_dir;

int random_id()
{
    thread_local std::mt19937 rng{std::random_device{}()};
    thread_local std::uniform_int_distribution<int> dist(1, WORLD_ROWS);
    return dist(rng);
}

// The SDK's listener adds neither Server nor Date; Date is formatted by its utility::datetime (RFC 1123).
http_response response(status_code status)
{
    http_response r(status);
    r.headers().add(header_names::server, "cpprestsdk");
    r.headers().add(header_names::date, utility::datetime::utc_now().to_string(utility::datetime::RFC_1123));
    return r;
}

void reply_text(const http_request& req, status_code status, const std::string& body, const std::string& type = "text/plain; charset=utf-8")
{
    http_response r = response(status);
    r.set_body(body, type);
    req.reply(r);
}

void reply_json(const http_request& req, const json::value& value)
{
    http_response r = response(status_codes::OK);
    r.set_body(value);
    req.reply(r);
}

void db_error(const http_request& req)
{
    reply_text(req, status_codes::InternalError, "database error\n");
}

// A pooled connection for the handler's scope.
struct Conn {
    PGconn* pg = db_acquire();
    ~Conn() { db_release(pg); }
};

std::string query_param(const http_request& req, const std::string& name, bool* present = nullptr)
{
    auto params = uri::split_query(req.request_uri().query());
    auto it = params.find(name);
    if (present != nullptr)
        *present = it != params.end();
    return it != params.end() ? it->second : std::string();
}

int count_param(const http_request& req, const char* name)
{
    bool present;
    std::string v = query_param(req, name, &present);
    return db_count_param(present ? v.c_str() : nullptr);
}

json::value row_json(const world_row_t& r)
{
    json::value o = json::value::object();
    o["id"] = json::value::number(r.id);
    o["randomNumber"] = json::value::number(r.random_number);
    return o;
}

json::value rows_json(const std::vector<world_row_t>& rows)
{
    json::value a = json::value::array(rows.size());
    for (size_t i = 0; i < rows.size(); ++i)
        a[i] = row_json(rows[i]);
    return a;
}

enum class Mode { single, queries, updates };

void world(const http_request& req, int n, Mode mode)
{
    std::vector<world_row_t> rows(n);
    int rc;
    {
        Conn c;
        rc = db_world_rows(c.pg, rows.data(), n, mode == Mode::updates, random_id);
    }
    if (rc != 0)
        return db_error(req);
    reply_json(req, mode == Mode::single ? row_json(rows[0]) : rows_json(rows));
}

// cached: world read once on first use, only read after that
const world_row_t* world_cache()
{
    static std::once_flag filled;
    static std::unique_ptr<world_row_t[]> table;
    std::call_once(filled, [] {
        auto fresh = std::make_unique<world_row_t[]>(WORLD_ROWS);
        Conn c;
        if (db_world_all(c.pg, fresh.get()) == 0)
            table = std::move(fresh);
    });
    return table.get();
}

void cached(const http_request& req)
{
    const world_row_t* table = world_cache();
    if (table == nullptr)
        return db_error(req);
    std::vector<world_row_t> rows(count_param(req, "count"));
    for (auto& r : rows)
        r = table[random_id() - 1];
    reply_json(req, rows_json(rows));
}

void escape_into(std::string& out, const char* s)
{
    for (; *s; ++s) {
        switch (*s) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&#39;"; break;
        default: out += *s;
        }
    }
}

// The SDK has no template engine: the page is written here, every message HTML-escaped.
void fortunes(const http_request& req)
{
    fortune_row_t* rows;
    int n;
    {
        Conn c;
        n = db_fortunes(c.pg, &rows);
    }
    if (n < 0)
        return db_error(req);
    rows[n++] = fortune_row_t{0, strdup("Additional fortune added at request time.")};
    std::sort(rows, rows + n, [](const fortune_row_t& a, const fortune_row_t& b) { return std::strcmp(a.message, b.message) < 0; });
    std::string page = "<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>";
    for (int i = 0; i < n; ++i) {
        page += "<tr><td>" + std::to_string(rows[i].id) + "</td><td>";
        escape_into(page, rows[i].message);
        page += "</td></tr>";
    }
    page += "</table></body></html>";
    db_fortunes_free(rows, n);
    reply_text(req, status_codes::OK, page, "text/html; charset=utf-8");
}

bool is_uid(const std::string& s)
{
    return s.size() == 32 && std::all_of(s.begin(), s.end(), [](char ch) { return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f'); });
}

// The sid cookie when it is one of ours (32 hex digits), else a new random id (the SDK parses no cookies).
std::string visitor_id(const http_request& req)
{
    auto h = req.headers().find("Cookie");
    if (h != req.headers().end()) {
        const std::string& cookie = h->second;
        for (size_t at = cookie.find("sid="); at != std::string::npos; at = cookie.find("sid=", at + 4)) {
            if (at > 0 && cookie[at - 1] != ' ' && cookie[at - 1] != ';')
                continue;
            size_t end = cookie.find(';', at);
            std::string value = cookie.substr(at + 4, end == std::string::npos ? std::string::npos : end - at - 4);
            if (is_uid(value))
                return value;
        }
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

void session(const http_request& req)
{
    std::string uid = visitor_id(req);
    char* data;
    {
        Conn c;
        data = db_session_bump(c.pg, uid.c_str());
    }
    std::error_code ec;
    json::value parsed = data != nullptr ? json::value::parse(data, ec) : json::value();
    std::free(data);
    if (data == nullptr || ec || !parsed.is_object() || !parsed.has_integer_field("count"))
        return db_error(req);
    http_response r = response(status_codes::OK);
    r.headers().add("Set-Cookie", "sid=" + uid + "; Path=/; HttpOnly");
    r.set_body("Count is " + std::to_string(parsed.at("count").as_integer()), "text/plain; charset=utf-8");
    req.reply(r);
}

void hash(const http_request& req)
{
    static const char hex[] = "0123456789abcdef";
    std::string arg = query_param(req, "n");
    char* end = nullptr;
    long n = arg.empty() ? 0 : std::strtol(arg.c_str(), &end, 10);
    if (n < 1 || n > 100000 || *end != '\0')
        return reply_text(req, status_codes::BadRequest, "n must be an integer from 1 to 100000\n");
    // read from disk on every request, as the contract asks
    int fd = open(hash_file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd == -1)
        return reply_text(req, status_codes::InternalError, "cannot open HASH_FILE\n");
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
    reply_text(req, status_codes::OK, out);
}

// The SDK's way to answer with a file: an asynchronous file stream as the body, its length given. The stream is
// closed by a task once the response is sent: a file buffer still open when its last reference goes waits
// for its own close task, which deadlocks a pool of one thread.
void static_file(const http_request& req)
{
    auto parts = uri::split_path(uri::decode(req.relative_uri().path()));
    if (parts.size() != 1 || parts[0].find("..") != std::string::npos)
        return reply_text(req, status_codes::NotFound, "not found\n");
    std::string path = static_dir + "/" + parts[0];
    bool html = parts[0].size() > 5 && parts[0].compare(parts[0].size() - 5, 5, ".html") == 0;
    concurrency::streams::fstream::open_istream(path, std::ios::in | std::ios::binary)
        .then([req, html](concurrency::streams::istream file) {
            size_t length = file.streambuf().size();
            http_response r = response(status_codes::OK);
            r.set_body(file, length, html ? "text/html" : "application/octet-stream");
            return req.reply(r).then([file](pplx::task<void> sent) {
                concurrency::streams::istream opened = file;
                return opened.close().then([sent]() { sent.get(); });
            });
        })
        .then([req](pplx::task<void> done) {
            try {
                done.get();
            } catch (const std::exception&) {
                reply_text(req, status_codes::NotFound, "not found\n");
            }
        });
}

}  // namespace

int main()
{
    int workers = std::max(1, std::atoi(env("WORKERS", "1")));
    int pool = std::max(1, std::atoi(env("DB_POOL_TOTAL", "1")));
    const char* cert = env("TLS_CERT", nullptr);
    const char* key = env("TLS_KEY", nullptr);
    hash_file = env("HASH_FILE", "hash.bin");
    static_dir = env("STATIC_DIR", ".");

    // SIGTERM waits for sigwait below: blocked before the SDK's threads start, so they inherit the mask
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGINT);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);
    std::signal(SIGPIPE, SIG_IGN);

    // the SDK's pool defaults to 40 threads; WORKERS it is (before anything starts it)
    crossplat::threadpool::initialize_with_threads(workers);
    // one process: DB_POOL_TOTAL connections shared by the WORKERS threads
    if (db_pool_open(pool) != 0)
        return 1;

    http_listener_config config;
    bool tls = cert != nullptr && key != nullptr;
    if (tls) {
        std::string chain = cert, private_key = key;
        config.set_ssl_context_callback([chain, private_key](boost::asio::ssl::context& ctx) {
            ctx.set_options(boost::asio::ssl::context::default_workarounds | boost::asio::ssl::context::no_sslv2 |
                            boost::asio::ssl::context::no_sslv3 | boost::asio::ssl::context::no_tlsv1 |
                            boost::asio::ssl::context::no_tlsv1_1);
            ctx.use_certificate_chain_file(chain);
            ctx.use_private_key_file(private_key, boost::asio::ssl::context::pem);
        });
    }
    std::string base = std::string(tls ? "https://" : "http://") + env("HOST", "127.0.0.1") + ":" + env("PORT", "8080");
    const std::pair<const char*, std::function<void(http_request)>> routes[] = {
        {"/plaintext", [](http_request req) { reply_text(req, status_codes::OK, "Hello, World!"); }},
        {"/json", [](http_request req) {
             json::value o = json::value::object();
             o["message"] = json::value::string("Hello, World!");
             reply_json(req, o);
         }},
        {"/db", [](http_request req) { world(req, 1, Mode::single); }},
        {"/queries", [](http_request req) { world(req, count_param(req, "queries"), Mode::queries); }},
        {"/updates", [](http_request req) { world(req, count_param(req, "queries"), Mode::updates); }},
        {"/cached-queries", [](http_request req) { cached(req); }},
        {"/fortunes", [](http_request req) { fortunes(req); }},
        {"/session", [](http_request req) { session(req); }},
        {"/hash", [](http_request req) { hash(req); }},
        {"/static", [](http_request req) { static_file(req); }},
    };
    std::vector<std::unique_ptr<http_listener>> listeners;
    try {
        for (const auto& [path, handler] : routes) {
            listeners.push_back(std::make_unique<http_listener>(uri(base + path), config));
            listeners.back()->support(methods::GET, handler);
            listeners.back()->open().wait();
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "listen on %s: %s\n", base.c_str(), e.what());
        return 1;
    }
    int sig;
    sigwait(&signals, &sig);
    std::_Exit(0);  // without draining: the harness stops the server with SIGTERM
}
