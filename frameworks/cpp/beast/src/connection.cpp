#include "connection.hpp"

#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include <chrono>

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;

namespace {

// Beast's examples bound every read with a timeout so an idle or stuck client cannot hold a connection.
constexpr auto kIdleTimeout = std::chrono::seconds(30);

asio::awaitable<void> echo(beast::tcp_stream stream, const Request& upgrade) {
  stream.expires_never();  // the websocket stream keeps its own timeouts
  websocket::stream<beast::tcp_stream> ws(std::move(stream));
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

}  // namespace

asio::awaitable<void> serve(Worker& worker, asio::ip::tcp::socket socket) {
  beast::tcp_stream stream(std::move(socket));
  beast::flat_buffer buffer;
  beast::error_code ec;
  auto on_error = asio::redirect_error(asio::use_awaitable, ec);
  for (;;) {
    Request request;
    stream.expires_after(kIdleTimeout);
    co_await http::async_read(stream, buffer, request, on_error);
    if (ec) break;  // the client closed, timed out, or sent something that is not HTTP
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
  stream.socket().shutdown(asio::ip::tcp::socket::shutdown_send, ec);
}
