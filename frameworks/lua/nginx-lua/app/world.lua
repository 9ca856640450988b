-- The world rows: one read per query, and the in-process cache the cached workload answers from.
local lrucache = require "resty.lrucache"
local semaphore = require "ngx.semaphore"
local pg = require "shootout.pg"
local te = require "shootout.techempower"

local _M = {}

local cache, filled, filling

-- In the master before the fork, so each worker starts with its own empty cache: an lrucache (OpenResty's
-- in-worker cache) with room for the whole table, so nothing is ever evicted.
function _M.init()
    local err
    cache, err = lrucache.new(te.WORLD_ROWS)
    if not cache then
        error("lrucache: " .. tostring(err))
    end
    filled = false
end

function _M.read(conn, id)
    local row = conn:execute("world_select", { id })[1]
    return te.world(tonumber(row[1]), tonumber(row[2]))
end

local function fill()
    pg.with(function(conn)
        for _, row in ipairs(conn:execute("world_all", {})) do
            local id = tonumber(row[1])
            cache:set(id, te.world(id, tonumber(row[2])))
        end
    end)
end

-- The whole table into this worker's cache on first use, by one SELECT; requests that come while it
-- loads wait on a semaphore rather than each reading the table again.
local function ensure_filled()
    if filling then
        local sema = filling
        sema:wait(60)
        if not filled then
            error("the world cache could not be filled")
        end
        return
    end
    filling = semaphore.new(0)
    local ok, err = pcall(fill)
    filled = ok
    local waiters = -filling:count()
    if waiters > 0 then
        filling:post(waiters)
    end
    filling = nil
    if not ok then
        error(err, 0)
    end
end

-- n random rows from the cache, no query once it is filled.
function _M.cached(n)
    if not filled then
        ensure_filled()
    end
    local rows = {}
    for i = 1, n do
        rows[i] = cache:get(te.random_id())
    end
    return rows
end

return _M
