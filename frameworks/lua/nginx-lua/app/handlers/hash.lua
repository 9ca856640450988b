local hashing = require "shootout.hashing"
local respond = require "app.respond"

local raw = ngx.var.arg_n
local n, reason = hashing.parse_n(raw and ngx.unescape_uri(raw))
if not n then
    return respond("text/plain; charset=utf-8", reason .. "\n", 400)
end
respond("text/plain; charset=utf-8", hashing.iterated_sha256(os.getenv("HASH_FILE"), n))
