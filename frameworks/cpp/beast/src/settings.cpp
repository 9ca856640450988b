#include "settings.hpp"

#include <charconv>
#include <cstdlib>
#include <stdexcept>

namespace {

std::string required(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') {
    throw std::runtime_error(std::string("environment variable ") + name + " is not set");
  }
  return value;
}

long integer(const char* name, long low, long high) {
  const std::string text = required(name);
  long value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < low || value > high) {
    throw std::runtime_error(std::string(name) + "='" + text + "' is not an integer in " +
                             std::to_string(low) + ".." + std::to_string(high));
  }
  return value;
}

std::string optional(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::string() : value;
}

}  // namespace

Settings Settings::from_environment() {
  Settings settings{
      .host = required("HOST"),
      .port = static_cast<unsigned short>(integer("PORT", 1, 65535)),
      .workers = static_cast<int>(integer("WORKERS", 1, 1024)),
      .db_pool = static_cast<int>(integer("DB_POOL_TOTAL", 1, 1024)),
      .database_url = required("DATABASE_URL"),
      .hash_file = required("HASH_FILE"),
      .static_dir = required("STATIC_DIR"),
      .tls_cert = optional("TLS_CERT"),
      .tls_key = optional("TLS_KEY"),
  };
  if (settings.tls_cert.empty() != settings.tls_key.empty()) {
    throw std::runtime_error("TLS_CERT and TLS_KEY must be set together (TLS) or both left unset (cleartext)");
  }
  return settings;
}
