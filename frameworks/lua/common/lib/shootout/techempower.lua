-- What TechEmpower's database test types share (docs/workloads.md): the count clamp, random ids, the
-- fortune list's order, and the rows as the JSON answers hold them.
local random = math.random
local sort = table.sort

local _M = { WORLD_ROWS = 10000, MAX_COUNT = 500 }

-- queries' and updates' ?queries=, cached's ?count=: missing, empty, not an integer or below 1 means 1,
-- above 500 means 500.
function _M.count(raw)
    local n = type(raw) == "string" and tonumber(raw:match("^%s*(%-?%d+)%s*$"))
    if not n or n < 1 then
        return 1
    end
    if n > _M.MAX_COUNT then
        return _M.MAX_COUNT
    end
    return n
end

-- Uniform in 1..10000; ids may repeat, as TechEmpower's may. math.random is seeded per nginx worker
-- (init_worker), or every worker forked from the master would draw the same sequence.
function _M.random_id()
    return random(1, _M.WORLD_ROWS)
end

function _M.world(id, number)
    return { id = id, randomNumber = number }
end

local ADDITIONAL = "Additional fortune added at request time."

local function by_message(a, b)
    return a.message < b.message
end

-- The table's rows plus the one added at request time, sorted by message: LuaJIT compares strings
-- bytewise, and UTF-8's byte order is code point order.
function _M.fortunes_sorted(rows)
    rows[#rows + 1] = { id = 0, message = ADDITIONAL }
    sort(rows, by_message)
    return rows
end

return _M
