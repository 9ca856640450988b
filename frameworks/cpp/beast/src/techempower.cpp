#include "techempower.hpp"

#include <libpq-fe.h>

#include <algorithm>
#include <charconv>
#include <memory>
#include <stdexcept>

namespace techempower {

namespace {

constexpr int kWorldRows = 10000;
std::vector<int> world_cache;  // index id - 1

void escape(std::string& out, std::string_view text) {
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
}

}  // namespace

int count(std::optional<std::string_view> raw) {
  int n = 0;
  if (!raw || raw->empty()) return 1;
  const auto [end, ec] = std::from_chars(raw->data(), raw->data() + raw->size(), n);
  if (ec == std::errc::result_out_of_range && raw->front() != '-') return 500;
  if (ec != std::errc() || end != raw->data() + raw->size() || n < 1) return 1;
  return std::min(n, 500);
}

void load_world_cache(const std::string& conninfo) {
  std::unique_ptr<PGconn, decltype(&PQfinish)> conn(PQconnectdb(conninfo.c_str()), &PQfinish);
  if (PQstatus(conn.get()) != CONNECTION_OK) {
    throw std::runtime_error(std::string("world cache: cannot connect: ") + PQerrorMessage(conn.get()));
  }
  std::unique_ptr<PGresult, decltype(&PQclear)> result(PQexec(conn.get(), "SELECT id, randomnumber FROM world"),
                                                       &PQclear);
  if (PQresultStatus(result.get()) != PGRES_TUPLES_OK) {
    throw std::runtime_error(std::string("world cache: ") + PQerrorMessage(conn.get()));
  }
  world_cache.assign(kWorldRows, 0);
  for (int row = 0; row < PQntuples(result.get()); ++row) {
    const int id = std::stoi(PQgetvalue(result.get(), row, 0));
    if (id >= 1 && id <= kWorldRows) world_cache[id - 1] = std::stoi(PQgetvalue(result.get(), row, 1));
  }
}

int cached_number(int id) { return world_cache.at(id - 1); }

std::string fortunes_page(std::vector<Fortune> fortunes) {
  fortunes.emplace_back(0, "Additional fortune added at request time.");
  std::sort(fortunes.begin(), fortunes.end(), [](const Fortune& a, const Fortune& b) { return a.second < b.second; });
  std::string page =
      "<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>";
  for (const auto& [id, message] : fortunes) {
    page += "<tr><td>";
    page += std::to_string(id);
    page += "</td><td>";
    escape(page, message);
    page += "</td></tr>";
  }
  page += "</table></body></html>";
  return page;
}

}  // namespace techempower
