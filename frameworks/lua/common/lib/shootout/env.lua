-- The harness's variables (docs/adding-a-framework.md). Inside nginx a worker sees only the variables its
-- config names with `env` directives, so a missing one is reported as such rather than as a bad value.
local _M = {}

local function required(name)
    local v = os.getenv(name)
    if v == nil or v == "" then
        error(name .. " is not set (inside nginx, only variables named by an `env` directive are visible)", 2)
    end
    return v
end

local function positive(name)
    local v = required(name)
    local n = tonumber(v)
    if not n or n < 1 or n % 1 ~= 0 then
        error(name .. "=" .. v .. " is not a positive integer", 2)
    end
    return n
end

_M.required = required
_M.positive = positive

-- The libpq-style variables, which the harness sets beside DATABASE_URL; pool_size is DB_POOL, each
-- nginx worker being one of WORKERS processes that share DB_POOL_TOTAL connections (docs/fairness.md).
function _M.postgres()
    return {
        host = required("PGHOST"),
        port = positive("PGPORT"),
        user = required("PGUSER"),
        password = os.getenv("PGPASSWORD") or "",
        database = required("PGDATABASE"),
        pool_size = positive("DB_POOL"),
    }
end

return _M
