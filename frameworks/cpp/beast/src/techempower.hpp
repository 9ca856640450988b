// Pieces of TechEmpower's database test types (docs/workloads.md) that need no request or connection.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace techempower {

// The count rule: missing, empty, not an integer or below 1 is 1; above 500 is 500.
int count(std::optional<std::string_view> raw);

// Reads every world row once with a blocking libpq connection, before the worker threads start; the
// table is read-only for the threads afterwards, so it needs no lock.
void load_world_cache(const std::string& conninfo);
int cached_number(int id);

using Fortune = std::pair<int, std::string>;

// Adds the request-time fortune, sorts by message (byte order, which is code-point order for UTF-8)
// and renders TechEmpower's table. Beast has no template engine, so the page is built here with a
// small HTML escaping function.
std::string fortunes_page(std::vector<Fortune> fortunes);

}  // namespace techempower
