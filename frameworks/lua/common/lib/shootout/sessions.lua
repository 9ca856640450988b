-- The session workload's counter in usersessions(uid, data) (docs/workloads.md), on shootout.pg: one visit,
-- one transaction, the visitor's row locked by SELECT ... FOR UPDATE until its UPDATE (or the INSERT of a
-- new visitor), as the other languages' common code does it.
local cjson = require "cjson"
local pg = require "shootout.pg"
local random = require "nginx.random"
local to_hex = require("nginx.string").to_hex

local _M = {
    COOKIE = "uid",
    STATEMENTS = {
        session_select = "SELECT data FROM usersessions WHERE uid = $1 FOR UPDATE",
        session_insert = "INSERT INTO usersessions (uid, data) VALUES ($1, $2)",
        session_update = "UPDATE usersessions SET data = $2 WHERE uid = $1",
    },
}

local function data(count)
    return cjson.encode({ count = count })
end

-- Returns the visit's count and, for a new or unknown visitor, the fresh uid to set as its cookie.
-- The statements must be among those shootout.pg prepares (STATEMENTS above).
function _M.visit(uid)
    return pg.with(function(conn)
        conn:query("BEGIN")
        local rows = uid and conn:execute("session_select", { uid })
        local count, fresh
        if rows and rows[1] then
            count = cjson.decode(rows[1][1]).count + 1
            conn:execute("session_update", { uid, data(count) })
        else
            fresh = to_hex(random.bytes(16, true))
            count = 1
            conn:execute("session_insert", { fresh, data(count) })
        end
        conn:query("COMMIT")
        return count, fresh
    end)
end

return _M
