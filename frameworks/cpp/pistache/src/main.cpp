// Pistache 0.0.5: one Http::Endpoint whose reactor runs WORKERS threads (Endpoint::options().threads), routes
// on Pistache's Rest::Router, JSON by RapidJSON (the JSON library Pistache ships its serializer for). Pistache
// gives handlers no way to wait on another socket, so the database is a process-wide pool of DB_POOL_TOTAL
// blocking libpq connections (src/db.c) and a handler holds its reactor thread while it queries.
#include <pistache/endpoint.h>
#include <pistache/http.h>
#include <pistache/router.h>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <rapidjson/document.h>

#include <openssl/evp.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdlib>
#include <ctime>
#include <fcntl.h>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <sys/random.h>
#include <unistd.h>
#include <vector>

#include "db.h"

using namespace Pistache;

namespace {

const char* env(const char* name, const char* fallback)
{
    const char* v = std::getenv(name);
    return v != nullptr && *v != '\0' ? v : fallback;
}

std::string hash_file, static_dir;
const Http::Mime::MediaType text_utf8 = Http::Mime::MediaType::fromString("text/plain; charset=utf-8");
const Http::Mime::MediaType json_type = Http::Mime::MediaType::fromString("application/json");
const Http::Mime::MediaType html_utf8 = Http::Mime::MediaType::fromString("text/html; charset=utf-8");

// The IMF-fixdate of this second, formatted once per second per thread.
const std::string& http_date()
{
    thread_local std::time_t formatted_at = 0;
    thread_local std::string date;
    std::time_t now = std::time(nullptr);
    if (now != formatted_at) {
        char buf[40];
        std::tm tm;
        gmtime_r(&now, &tm);
        date.assign(buf, std::strftime(buf, sizeof(buf), "%a, %d %b %Y %H:%M:%S GMT", &tm));
        formatted_at = now;
    }
    return date;
}

// Pistache adds no Date, its Header::Date writes fractional seconds and "UTC" (not an IMF-fixdate), and it
// writes only typed headers (not Header::Raw): so a typed header of our own carries the IMF-fixdate.
class ImfDate : public Http::Header::Header {
public:
    NAME("Date")
    explicit ImfDate(const std::string& value) : value_(value) {}
    void write(std::ostream& os) const override { os << value_; }

private:
    std::string value_;
};

// Pistache 0.0.5 answers "Connection: Close" to every request without a Connection header while it keeps the
// socket open (Handler::onInput in http.cc); HTTP/1.1's default is a persistent connection, so that header is
// dropped for HTTP/1.1 requests that did not ask to close.
void common_headers(const Http::Request& request, Http::ResponseWriter& response)
{
    auto& headers = response.headers();
    headers.add<Http::Header::Server>("Pistache");
    headers.add(std::make_shared<ImfDate>(http_date()));
    if (request.version() == Http::Version::Http11 && !request.headers().has<Http::Header::Connection>())
        headers.remove<Http::Header::Connection>();
}

void send(const Http::Request& request, Http::ResponseWriter& response, Http::Code code, const Http::Mime::MediaType& type,
          const std::string& body)
{
    common_headers(request, response);
    response.send(code, body, type);
}

int random_id()
{
    thread_local std::mt19937 rng{std::random_device{}()};
    thread_local std::uniform_int_distribution<int> dist(1, WORLD_ROWS);
    return dist(rng);
}

// A pooled connection for the handler's scope.
struct Conn {
    PGconn* pg = db_acquire();
    ~Conn() { db_release(pg); }
};

int count_param(const Rest::Request& request, const char* name)
{
    auto v = request.query().get(name);
    return db_count_param(v ? v->c_str() : nullptr);
}

void plaintext(const Rest::Request& request, Http::ResponseWriter response)
{
    send(request, response, Http::Code::Ok, text_utf8, "Hello, World!");
}

void json(const Rest::Request& request, Http::ResponseWriter response)
{
    rapidjson::StringBuffer buf;
    rapidjson::Writer<rapidjson::StringBuffer> w(buf);
    w.StartObject();
    w.Key("message");
    w.String("Hello, World!");
    w.EndObject();
    send(request, response, Http::Code::Ok, json_type, std::string(buf.GetString(), buf.GetSize()));
}

void write_row(rapidjson::Writer<rapidjson::StringBuffer>& w, const world_row_t& r)
{
    w.StartObject();
    w.Key("id");
    w.Int(r.id);
    w.Key("randomNumber");
    w.Int(r.random_number);
    w.EndObject();
}

void send_rows(const Http::Request& request, Http::ResponseWriter& response, const std::vector<world_row_t>& rows, bool as_array)
{
    rapidjson::StringBuffer buf;
    rapidjson::Writer<rapidjson::StringBuffer> w(buf);
    if (as_array)
        w.StartArray();
    for (const auto& r : rows)
        write_row(w, r);
    if (as_array)
        w.EndArray();
    send(request, response, Http::Code::Ok, json_type, std::string(buf.GetString(), buf.GetSize()));
}

void db_error(const Http::Request& request, Http::ResponseWriter& response)
{
    send(request, response, Http::Code::Internal_Server_Error, text_utf8, "database error\n");
}

enum class Mode { single, queries, updates };

void world(const Http::Request& request, Http::ResponseWriter& response, int n, Mode mode)
{
    std::vector<world_row_t> rows(n);
    int rc;
    {
        Conn c;
        rc = db_world_rows(c.pg, rows.data(), n, mode == Mode::updates, random_id);
    }
    if (rc != 0)
        return db_error(request, response);
    send_rows(request, response, rows, mode != Mode::single);
}

void db(const Rest::Request& request, Http::ResponseWriter response) { world(request, response, 1, Mode::single); }
void queries(const Rest::Request& request, Http::ResponseWriter response) { world(request, response, count_param(request, "queries"), Mode::queries); }
void updates(const Rest::Request& request, Http::ResponseWriter response) { world(request, response, count_param(request, "queries"), Mode::updates); }

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

void cached(const Rest::Request& request, Http::ResponseWriter response)
{
    const world_row_t* table = world_cache();
    if (table == nullptr)
        return db_error(request, response);
    std::vector<world_row_t> rows(count_param(request, "count"));
    for (auto& r : rows)
        r = table[random_id() - 1];
    send_rows(request, response, rows, true);
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

// Pistache has no template engine: the page is written here, every message HTML-escaped.
void fortunes(const Rest::Request& request, Http::ResponseWriter response)
{
    fortune_row_t* rows;
    int n;
    {
        Conn c;
        n = db_fortunes(c.pg, &rows);
    }
    if (n < 0)
        return db_error(request, response);
    rows[n++] = fortune_row_t{0, strdup("Additional fortune added at request time.")};
    std::sort(rows, rows + n, [](const fortune_row_t& a, const fortune_row_t& b) { return std::strcmp(a.message, b.message) < 0; });
    std::string page = "<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>";
    for (int i = 0; i < n; ++i) {
        page += "<tr><td>";
        page += std::to_string(rows[i].id);
        page += "</td><td>";
        escape_into(page, rows[i].message);
        page += "</td></tr>";
    }
    page += "</table></body></html>";
    db_fortunes_free(rows, n);
    send(request, response, Http::Code::Ok, html_utf8, page);
}

bool is_uid(const std::string& s)
{
    return s.size() == 32 && std::all_of(s.begin(), s.end(), [](char ch) { return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f'); });
}

void session(const Rest::Request& request, Http::ResponseWriter response)
{
    static const char hex[] = "0123456789abcdef";
    std::string uid;
    if (request.cookies().has("sid"))
        uid = request.cookies().get("sid").value;
    if (!is_uid(uid)) {
        unsigned char r[16];
        while (getrandom(r, sizeof(r), 0) != sizeof(r))
            ;
        uid.clear();
        for (unsigned char b : r) {
            uid += hex[b >> 4];
            uid += hex[b & 15];
        }
    }
    char* data;
    {
        Conn c;
        data = db_session_bump(c.pg, uid.c_str());
    }
    rapidjson::Document doc;
    bool ok = data != nullptr && !doc.Parse(data).HasParseError() && doc.IsObject() && doc.HasMember("count") && doc["count"].IsInt();
    std::free(data);
    if (!ok)
        return db_error(request, response);
    Http::Cookie cookie("sid", uid);
    cookie.path = "/";
    cookie.httpOnly = true;
    response.cookies().add(cookie);
    send(request, response, Http::Code::Ok, text_utf8, "Count is " + std::to_string(doc["count"].GetInt()));
}

void hash(const Rest::Request& request, Http::ResponseWriter response)
{
    static const char hex[] = "0123456789abcdef";
    auto arg = request.query().get("n");
    char* end = nullptr;
    long n = arg && !arg->empty() ? std::strtol(arg->c_str(), &end, 10) : 0;
    if (n < 1 || n > 100000 || *end != '\0')
        return send(request, response, Http::Code::Bad_Request, text_utf8, "n must be an integer from 1 to 100000\n");
    // read from disk on every request, as the contract asks
    int fd = open(hash_file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd == -1)
        return send(request, response, Http::Code::Internal_Server_Error, text_utf8, "cannot open HASH_FILE\n");
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
    send(request, response, Http::Code::Ok, text_utf8, out);
}

// Pistache's own file serving (Http::serveFile), the type given by the extension
void static_file(const Rest::Request& request, Http::ResponseWriter response)
{
    std::string name = request.splatAt(0).as<std::string>();
    if (name.empty() || name.find("..") != std::string::npos)
        return send(request, response, Http::Code::Not_Found, text_utf8, "not found\n");
    bool html = name.size() > 5 && name.compare(name.size() - 5, 5, ".html") == 0;
    common_headers(request, response);
    Http::serveFile(response, static_dir + "/" + name, html ? MIME(Text, Html) : MIME(Application, OctetStream));
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
    // OpenSSL writes to the socket with write(2), so a client gone before its TLS session tickets or
    // close_notify would otherwise kill the process with SIGPIPE (Pistache's own sends use MSG_NOSIGNAL)
    std::signal(SIGPIPE, SIG_IGN);
    // one process: DB_POOL_TOTAL connections shared by the WORKERS reactor threads
    if (db_pool_open(pool) != 0)
        return 1;

    Rest::Router router;
    Rest::Routes::Get(router, "/plaintext", Rest::Routes::bind(&plaintext));
    Rest::Routes::Get(router, "/json", Rest::Routes::bind(&json));
    Rest::Routes::Get(router, "/db", Rest::Routes::bind(&db));
    Rest::Routes::Get(router, "/queries", Rest::Routes::bind(&queries));
    Rest::Routes::Get(router, "/updates", Rest::Routes::bind(&updates));
    Rest::Routes::Get(router, "/cached-queries", Rest::Routes::bind(&cached));
    Rest::Routes::Get(router, "/fortunes", Rest::Routes::bind(&fortunes));
    Rest::Routes::Get(router, "/session", Rest::Routes::bind(&session));
    Rest::Routes::Get(router, "/hash", Rest::Routes::bind(&hash));
    Rest::Routes::Get(router, "/static/*", Rest::Routes::bind(&static_file));

    Http::Endpoint server(Address(env("HOST", "127.0.0.1"), Port(static_cast<uint16_t>(std::atoi(env("PORT", "8080"))))));
    server.init(Http::Endpoint::options().threads(workers).flags(Tcp::Options::ReuseAddr));
    if (cert != nullptr && key != nullptr)
        server.useSSL(cert, key);
    server.setHandler(router.handler());
    server.serve();
}
