// The workloads of docs/workloads.md, as request handlers of one worker thread.
#pragma once

#include "pg.hpp"
#include "settings.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/beast/http.hpp>

#include <cstdint>
#include <random>
#include <variant>
#include <vector>

namespace http = boost::beast::http;

using Request = http::request<http::string_body>;
using StringResponse = http::response<http::string_body>;
using FileResponse = http::response<http::file_body>;
using Response = std::variant<StringResponse, FileResponse>;

// Everything a worker thread's handlers use; one per io_context, never shared between threads.
struct Worker {
  const Settings& settings;
  pg::Pool pool;
  std::mt19937 rng;
};

// The statements each database connection prepares for the handlers.
const std::vector<pg::Statement>& statements();

// Answers one request; failures become a 500 with a one-line reason rather than an exception.
boost::asio::awaitable<Response> handle(Worker& worker, const Request& request);

// A request parser's body limit: upload's bodies of up to 1 MiB pass, anything over 2 MiB is refused.
// Beast's request parser defaults to 1 MiB (basic_parser::body_limit).
inline constexpr std::uint64_t kBodyLimit = 2 * 1024 * 1024;

// The 413 for a request whose body passed kBodyLimit; the connection closes after it.
StringResponse payload_too_large(const http::request_header<>& header);

// Whether the request asks for the WebSocket echo endpoint.
bool is_websocket_echo(const Request& request);
