// One client connection: HTTP/1.1 keep-alive requests until the client leaves, or a WebSocket echo.
#pragma once

#include "workloads.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>

boost::asio::awaitable<void> serve(Worker& worker, boost::asio::ip::tcp::socket socket);
// The same session over TLS (HTTP/1.1 and wss), after the server side of the handshake.
boost::asio::awaitable<void> serve(Worker& worker, boost::asio::ip::tcp::socket socket, boost::asio::ssl::context& tls);
