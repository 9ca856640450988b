// What the harness hands the server, read once from the environment at start.
#pragma once

#include <string>

struct Settings {
  std::string host;
  unsigned short port;
  int workers;
  int db_pool;  // PostgreSQL connections the whole process may open (docs/fairness.md)
  std::string database_url;
  std::string hash_file;
  std::string static_dir;
  std::string tls_cert;  // PEM chain and key: both set means serve TLS only, both empty cleartext
  std::string tls_key;

  // Throws std::runtime_error naming the variable and its value when one is missing or malformed.
  static Settings from_environment();
};
