#include "connection.hpp"

#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>

#include <chrono>
#include <type_traits>

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;

namespace {

using TlsStream = beast::ssl_stream<beast::tcp_stream>;

// Beast's examples bound every read with a timeout so an idle or stuck client cannot hold a connection.
constexpr auto kIdleTimeout = std::chrono::seconds(30);

template <class Stream>
asio::awaitable<void> echo(Stream stream, const Request& upgrade) {
  beast::get_lowest_layer(stream).expires_never();  // the websocket stream keeps its own timeouts
  websocket::stream<Stream> ws(std::move(stream));
  ws.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
  beast::error_code ec;
  auto on_error = asio::redirect_error(asio::use_awaitable, ec);
  co_await ws.async_accept(upgrade, on_error);
  beast::flat_buffer buffer;
  while (!ec) {
    co_await ws.async_read(buffer, on_error);
    if (ec) break;
    ws.text(ws.got_text());
    co_await ws.async_write(buffer.data(), on_error);
    buffer.consume(buffer.size());
  }
}

// One template for both transports, so cleartext and TLS run the same request loop.
template <class Stream>
asio::awaitable<void> session(Worker& worker, Stream stream) {
  constexpr bool tls = std::is_same_v<Stream, TlsStream>;
  beast::flat_buffer buffer;
  beast::error_code ec;
  auto on_error = asio::redirect_error(asio::use_awaitable, ec);
  if constexpr (tls) {
    beast::get_lowest_layer(stream).expires_after(kIdleTimeout);
    co_await stream.async_handshake(asio::ssl::stream_base::server, on_error);
    if (ec) co_return;
  }
  for (;;) {
    // A parser of its own per request (Beast's parsers are not reused), for its body limit: the one
    // async_read(stream, buffer, message) makes internally keeps the 1 MiB default.
    http::request_parser<http::string_body> parser;
    parser.body_limit(kBodyLimit);
    beast::get_lowest_layer(stream).expires_after(kIdleTimeout);
    co_await http::async_read(stream, buffer, parser, on_error);
    if (ec == http::error::body_limit) {
      // Refused by the parser before the rest of the body is read: answer 413 and close, as the rest
      // of the body is still on its way and would otherwise be taken for the next request.
      StringResponse refused = payload_too_large(parser.get());
      co_await http::async_write(stream, refused, on_error);
      break;
    }
    if (ec) break;  // the client closed, timed out, or sent something that is not HTTP
    Request request = parser.release();
    if (is_websocket_echo(request)) {
      co_await echo(std::move(stream), request);
      co_return;
    }
    const bool keep_alive = request.keep_alive();
    Response response = co_await handle(worker, request);
    if (auto* file = std::get_if<FileResponse>(&response)) {
      co_await http::async_write(stream, *file, on_error);
    } else {
      co_await http::async_write(stream, std::get<StringResponse>(response), on_error);
    }
    if (ec || !keep_alive) break;
  }
  if constexpr (tls) {
    beast::get_lowest_layer(stream).expires_after(kIdleTimeout);  // close_notify both ways, bounded
    co_await stream.async_shutdown(on_error);
  } else {
    stream.socket().shutdown(asio::ip::tcp::socket::shutdown_send, ec);
  }
}

}  // namespace

asio::awaitable<void> serve(Worker& worker, asio::ip::tcp::socket socket) {
  return session(worker, beast::tcp_stream(std::move(socket)));
}

asio::awaitable<void> serve(Worker& worker, asio::ip::tcp::socket socket, asio::ssl::context& tls) {
  return session(worker, TlsStream(std::move(socket), tls));
}
