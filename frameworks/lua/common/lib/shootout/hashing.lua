-- The hash workload: SHA-256 of HASH_FILE, read from disk on every request, then iterated n - 1 times.
local sha256 = require "nginx.sha256"     -- lua-resty-string, as Debian names it
local to_hex = require("nginx.string").to_hex

local _M = { MAX_N = 100000 }

-- The query's n, or nil and the one-line reason the 400 answer carries.
function _M.parse_n(raw)
    if raw == nil then
        return nil, "missing query parameter n"
    end
    if type(raw) ~= "string" or not raw:match("^%-?%d+$") then
        return nil, "n must be an integer"
    end
    local n = tonumber(raw)
    if n < 1 or n > _M.MAX_N then
        return nil, "n must be between 1 and " .. _M.MAX_N
    end
    return n
end

-- io reads the 64 KiB file in the worker itself: a page-cache read, as short as nginx's own open and
-- read of a static file, so it is not worth a thread pool hop.
function _M.iterated_sha256(path, n)
    local f, err = io.open(path, "rb")
    if not f then
        error("cannot open HASH_FILE: " .. tostring(err))
    end
    local data = f:read("*a")
    f:close()
    local h = sha256:new()
    h:update(data)
    local digest = h:final()
    for _ = 2, n do
        h:reset()
        h:update(digest)
        digest = h:final()
    end
    return to_hex(digest)
end

return _M
