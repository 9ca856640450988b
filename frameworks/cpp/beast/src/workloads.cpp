#include "workloads.hpp"

#include "techempower.hpp"

#include <boost/beast/core/file.hpp>
#include <boost/beast/version.hpp>
#include <boost/beast/websocket/rfc6455.hpp>
#include <nlohmann/json.hpp>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <ctime>
#include <exception>
#include <optional>
#include <string>
#include <string_view>

namespace asio = boost::asio;
namespace beast = boost::beast;
using json = nlohmann::json;

namespace {

constexpr std::string_view kCookie = "uid";
constexpr int kMaxRounds = 100000;

const std::vector<pg::Statement> kStatements = {
    {"world", "SELECT id, randomnumber FROM world WHERE id = $1"},
    {"session_select", "SELECT data FROM usersessions WHERE uid = $1 FOR UPDATE"},
    {"session_insert", "INSERT INTO usersessions (uid, data) VALUES ($1, $2)"},
    {"session_update", "UPDATE usersessions SET data = $2 WHERE uid = $1"},
    {"world_update", "UPDATE world SET randomnumber = $2 WHERE id = $1"},
    {"fortunes", "SELECT id, message FROM fortune"},
};

// Beast leaves Date to the application. Each thread formats it when the clock's second changes and
// reuses it until then: current on every response, without a timer or a lock.
const std::string& http_date() {
  thread_local std::time_t shown = -1;
  thread_local std::string value;
  const std::time_t now = std::time(nullptr);
  if (now != shown) {
    std::tm utc{};
    gmtime_r(&now, &utc);
    char buffer[32];
    // The process never calls setlocale, so %a and %b are the C locale's English names IMF-fixdate wants.
    value.assign(buffer, std::strftime(buffer, sizeof buffer, "%a, %d %b %Y %H:%M:%S GMT", &utc));
    shown = now;
  }
  return value;
}

template <class Body>
void stamp(http::response<Body>& response) {
  response.set(http::field::server, BOOST_BEAST_VERSION_STRING);
  response.set(http::field::date, http_date());
}

StringResponse text(const Request& request, http::status status, std::string body,
                    std::string_view type = "text/plain; charset=utf-8") {
  StringResponse response{status, request.version()};
  stamp(response);
  response.set(http::field::content_type, type);
  response.keep_alive(request.keep_alive());
  response.body() = std::move(body);
  response.prepare_payload();
  return response;
}

StringResponse json_response(const Request& request, const json& value) {
  return text(request, http::status::ok, value.dump(), "application/json");
}

std::string hex(const unsigned char* bytes, std::size_t size) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(size * 2, '\0');
  for (std::size_t i = 0; i < size; ++i) {
    out[2 * i] = kDigits[bytes[i] >> 4];
    out[2 * i + 1] = kDigits[bytes[i] & 0x0f];
  }
  return out;
}

// ---- db

asio::awaitable<Response> db(Worker& worker, const Request& request) {
  const std::string id = std::to_string(std::uniform_int_distribution<int>(1, 10000)(worker.rng));
  pg::Result row;
  {
    auto conn = co_await worker.pool.acquire();
    row = co_await conn->execute("world", std::array{id.c_str()});
  }
  if (PQntuples(row.get()) != 1) throw std::runtime_error("world has no row with id " + id);
  co_return json_response(request, {{"id", std::stoi(PQgetvalue(row.get(), 0, 0))},
                                    {"randomNumber", std::stoi(PQgetvalue(row.get(), 0, 1))}});
}

std::optional<std::string_view> parameter(std::string_view query, std::string_view name);

// ---- queries, updates, fortunes, cached (TechEmpower's types)

int random_id(Worker& worker) { return std::uniform_int_distribution<int>(1, 10000)(worker.rng); }

json world_row(int id, int number) { return {{"id", id}, {"randomNumber", number}}; }

// One query per row on one leased connection, each awaited before the next.
asio::awaitable<std::vector<std::pair<int, int>>> read_worlds(Worker& worker, pg::Connection& conn, int count) {
  std::vector<std::pair<int, int>> worlds;
  for (int i = 0; i < count; ++i) {
    const std::string id = std::to_string(random_id(worker));
    const pg::Result row = co_await conn.execute("world", std::array{id.c_str()});
    if (PQntuples(row.get()) != 1) throw std::runtime_error("world has no row with id " + id);
    worlds.emplace_back(std::stoi(PQgetvalue(row.get(), 0, 0)), std::stoi(PQgetvalue(row.get(), 0, 1)));
  }
  co_return worlds;
}

json rows_json(const std::vector<std::pair<int, int>>& worlds) {
  json rows = json::array();
  for (const auto& [id, number] : worlds) rows.push_back(world_row(id, number));
  return rows;
}

asio::awaitable<Response> queries(Worker& worker, const Request& request, std::string_view query) {
  const int count = techempower::count(parameter(query, "queries"));
  std::vector<std::pair<int, int>> worlds;
  {
    auto conn = co_await worker.pool.acquire();
    worlds = co_await read_worlds(worker, *conn, count);
  }
  co_return json_response(request, rows_json(worlds));
}

// One autocommitted UPDATE per row: each locks a single row, so concurrent requests cannot deadlock.
asio::awaitable<Response> updates(Worker& worker, const Request& request, std::string_view query) {
  const int count = techempower::count(parameter(query, "queries"));
  std::vector<std::pair<int, int>> worlds;
  {
    auto conn = co_await worker.pool.acquire();
    worlds = co_await read_worlds(worker, *conn, count);
    for (auto& [id, number] : worlds) {
      number = random_id(worker);
      const std::string id_text = std::to_string(id), number_text = std::to_string(number);
      co_await conn->execute("world_update", std::array{id_text.c_str(), number_text.c_str()});
    }
  }
  co_return json_response(request, rows_json(worlds));
}

asio::awaitable<Response> fortunes(Worker& worker, const Request& request) {
  pg::Result result;
  {
    auto conn = co_await worker.pool.acquire();
    result = co_await conn->execute("fortunes");
  }
  std::vector<techempower::Fortune> rows;
  for (int row = 0; row < PQntuples(result.get()); ++row) {
    rows.emplace_back(std::stoi(PQgetvalue(result.get(), row, 0)), PQgetvalue(result.get(), row, 1));
  }
  co_return text(request, http::status::ok, techempower::fortunes_page(std::move(rows)), "text/html; charset=utf-8");
}

Response cached(Worker& worker, const Request& request, std::string_view query) {
  json rows = json::array();
  for (int i = techempower::count(parameter(query, "count")); i > 0; --i) {
    const int id = random_id(worker);
    rows.push_back(world_row(id, techempower::cached_number(id)));
  }
  return json_response(request, rows);
}

// ---- session

std::string cookie(std::string_view header, std::string_view name) {
  while (!header.empty()) {
    const std::size_t end = std::min(header.find(';'), header.size());
    std::string_view pair = header.substr(0, end);
    header.remove_prefix(std::min(end + 1, header.size()));
    while (!pair.empty() && pair.front() == ' ') pair.remove_prefix(1);
    if (pair.size() > name.size() && pair.substr(0, name.size()) == name && pair[name.size()] == '=') {
      return std::string(pair.substr(name.size() + 1));
    }
  }
  return {};
}

// Visitor ids are unguessable, so they come from OpenSSL's CSPRNG rather than the worker's PRNG.
std::string new_visitor_id() {
  std::array<unsigned char, 16> bytes{};
  if (RAND_bytes(bytes.data(), bytes.size()) != 1) throw std::runtime_error("RAND_bytes failed");
  return hex(bytes.data(), bytes.size());
}

// Built outside the coroutines: GCC 12 cannot keep a braced list's array alive across a co_await.
std::string counter(int count) { return json{{"count", count}}.dump(); }

struct Visit {
  int count;
  std::string new_id;  // empty for a known visitor
};

asio::awaitable<Visit> count_visit(pg::Connection& conn, const std::string& id) {
  co_await conn.execute("begin");
  pg::Result row;
  if (!id.empty()) row = co_await conn.execute("session_select", std::array{id.c_str()});
  if (!row || PQntuples(row.get()) == 0) {
    Visit visit{1, new_visitor_id()};
    co_await conn.execute("session_insert", std::array{visit.new_id.c_str(), counter(1).c_str()});
    co_await conn.execute("commit");
    co_return visit;
  }
  const int count = json::parse(PQgetvalue(row.get(), 0, 0)).at("count").get<int>() + 1;
  co_await conn.execute("session_update", std::array{id.c_str(), counter(count).c_str()});
  co_await conn.execute("commit");
  co_return Visit{count, {}};
}

asio::awaitable<Response> session(Worker& worker, const Request& request) {
  const std::string id = cookie(request[http::field::cookie], kCookie);
  auto conn = co_await worker.pool.acquire();
  std::optional<Visit> visit;
  std::exception_ptr failure;
  try {
    visit = co_await count_visit(*conn, id);
  } catch (...) {
    failure = std::current_exception();
  }
  if (failure) {
    co_await conn->rollback_if_open();  // C++20 forbids co_await inside a handler, hence the detour
    std::rethrow_exception(failure);
  }
  StringResponse response = text(request, http::status::ok, "Count is " + std::to_string(visit->count));
  if (!visit->new_id.empty()) {
    response.set(http::field::set_cookie, std::string(kCookie) + "=" + visit->new_id + "; Path=/; HttpOnly; SameSite=Lax");
  }
  co_return response;
}

// ---- hash

// The value of parameter `name` in a query string, if present.
std::optional<std::string_view> parameter(std::string_view query, std::string_view name) {
  while (!query.empty()) {
    const std::size_t end = std::min(query.find('&'), query.size());
    const std::string_view pair = query.substr(0, end);
    query.remove_prefix(std::min(end + 1, query.size()));
    const std::size_t eq = pair.find('=');
    if (pair.substr(0, eq) == name) return eq == std::string_view::npos ? std::string_view{} : pair.substr(eq + 1);
  }
  return std::nullopt;
}

std::string read_file(const std::string& path) {
  beast::error_code ec;
  beast::file file;
  file.open(path.c_str(), beast::file_mode::scan, ec);
  std::string data;
  if (!ec) data.resize(file.size(ec));
  std::size_t done = 0;
  while (!ec && done < data.size()) {
    const std::size_t got = file.read(data.data() + done, data.size() - done, ec);
    if (got == 0 && !ec) break;
    done += got;
  }
  if (ec) throw std::runtime_error("cannot read HASH_FILE " + path + ": " + ec.message());
  data.resize(done);
  return data;
}

// OpenSSL 3 looks the algorithm up on every use of EVP_sha256(); fetching it once avoids that.
const EVP_MD* sha256() {
  static const EVP_MD* md = EVP_MD_fetch(nullptr, "SHA256", nullptr);
  if (md == nullptr) throw std::runtime_error("OpenSSL has no SHA256");
  return md;
}

asio::awaitable<Response> hash(Worker& worker, const Request& request, std::string_view query) {
  const auto raw = parameter(query, "n");
  if (!raw) co_return text(request, http::status::bad_request, "missing query parameter n\n");
  int rounds = 0;
  const auto [end, ec] = std::from_chars(raw->data(), raw->data() + raw->size(), rounds);
  if (raw->empty() || ec != std::errc() || end != raw->data() + raw->size() || rounds < 1 || rounds > kMaxRounds) {
    co_return text(request, http::status::bad_request,
                   "n must be an integer in 1.." + std::to_string(kMaxRounds) + ", got '" + std::string(*raw) + "'\n");
  }
  const std::string data = read_file(worker.settings.hash_file);
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int size = 0;
  bool ok = EVP_Digest(data.data(), data.size(), digest.data(), &size, sha256(), nullptr);
  for (int i = 1; ok && i < rounds; ++i) {
    ok = EVP_Digest(digest.data(), size, digest.data(), &size, sha256(), nullptr);
  }
  if (!ok) throw std::runtime_error("EVP_Digest failed");
  co_return text(request, http::status::ok, hex(digest.data(), size));
}

// ---- upload

// The body as Beast's parser read it into the string_body, whole (chunked bodies decoded), hashed at once.
Response upload(const Request& request) {
  const std::string& body = request.body();
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int size = 0;
  if (!EVP_Digest(body.data(), body.size(), digest.data(), &size, sha256(), nullptr)) {
    throw std::runtime_error("EVP_Digest failed");
  }
  return text(request, http::status::ok, std::to_string(body.size()) + " " + hex(digest.data(), size));
}

// ---- static

std::string_view mime_type(std::string_view path) {
  const std::string_view ext = path.substr(std::min(path.rfind('.'), path.size()));
  if (ext == ".html" || ext == ".htm") return "text/html; charset=utf-8";
  if (ext == ".css") return "text/css";
  if (ext == ".js") return "application/javascript";
  if (ext == ".json") return "application/json";
  if (ext == ".png") return "image/png";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".txt") return "text/plain; charset=utf-8";
  return "application/octet-stream";
}

// Beast's own way to serve a file: an http::file_body response streamed from disk.
Response static_file(Worker& worker, const Request& request, std::string_view relative) {
  if (relative.empty() || relative.find("..") != std::string_view::npos || relative.front() == '/') {
    return text(request, http::status::not_found, "no such file\n");
  }
  const std::string path = worker.settings.static_dir + "/" + std::string(relative);
  beast::error_code ec;
  http::file_body::value_type body;
  body.open(path.c_str(), beast::file_mode::scan, ec);
  if (ec == beast::errc::no_such_file_or_directory || ec == beast::errc::is_a_directory) {
    return text(request, http::status::not_found, "no such file\n");
  }
  if (ec) throw std::runtime_error("cannot open " + path + ": " + ec.message());
  const auto size = body.size();
  FileResponse response{std::piecewise_construct, std::make_tuple(std::move(body)),
                        std::make_tuple(http::status::ok, request.version())};
  stamp(response);
  response.set(http::field::content_type, mime_type(path));
  response.content_length(size);
  response.keep_alive(request.keep_alive());
  return response;
}

asio::awaitable<Response> route(Worker& worker, const Request& request) {
  const std::string_view target = request.target();
  const std::size_t question = target.find('?');
  const std::string_view path = target.substr(0, question);
  const std::string_view query = question == std::string_view::npos ? "" : target.substr(question + 1);
  if (path == "/upload") {
    if (request.method() == http::verb::post) co_return upload(request);
    co_return text(request, http::status::method_not_allowed, "only POST is served here\n");
  }
  if (request.method() != http::verb::get) {
    co_return text(request, http::status::method_not_allowed, "only GET is served\n");
  }
  if (path == "/plaintext") co_return text(request, http::status::ok, "Hello, World!");
  if (path == "/json") co_return json_response(request, {{"message", "Hello, World!"}});
  if (path == "/db") co_return co_await db(worker, request);
  if (path == "/session") co_return co_await session(worker, request);
  if (path == "/hash") co_return co_await hash(worker, request, query);
  if (path == "/queries") co_return co_await queries(worker, request, query);
  if (path == "/updates") co_return co_await updates(worker, request, query);
  if (path == "/fortunes") co_return co_await fortunes(worker, request);
  if (path == "/cached-queries") co_return cached(worker, request, query);
  if (path.starts_with("/static/")) co_return static_file(worker, request, path.substr(8));
  co_return text(request, http::status::not_found, "no route for " + std::string(path) + "\n");
}

}  // namespace

const std::vector<pg::Statement>& statements() { return kStatements; }

StringResponse payload_too_large(const http::request_header<>& header) {
  StringResponse response{http::status::payload_too_large, header.version()};
  stamp(response);
  response.set(http::field::content_type, "text/plain; charset=utf-8");
  response.keep_alive(false);
  response.body() = "request body over " + std::to_string(kBodyLimit) + " bytes\n";
  response.prepare_payload();
  return response;
}

asio::awaitable<Response> handle(Worker& worker, const Request& request) {
  std::string reason;
  try {
    co_return co_await route(worker, request);
  } catch (const std::exception& error) {
    reason = error.what();
  }
  std::replace(reason.begin(), reason.end(), '\n', ' ');
  co_return text(request, http::status::internal_server_error, reason + "\n");
}

bool is_websocket_echo(const Request& request) {
  return beast::websocket::is_upgrade(request) && request.target() == "/ws";
}
