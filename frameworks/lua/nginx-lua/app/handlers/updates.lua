-- N rows read one query each, then one UPDATE per row, each autocommitted (Sync after every statement),
-- so concurrent requests lock one row at a time and cannot deadlock.
local cjson = require "cjson"
local pg = require "shootout.pg"
local te = require "shootout.techempower"
local world = require "app.world"
local respond = require "app.respond"

local n = te.count(ngx.var.arg_queries)
local rows = pg.with(function(conn)
    local rows = {}
    for i = 1, n do
        rows[i] = world.read(conn, te.random_id())
    end
    for i = 1, n do
        local row = rows[i]
        row.randomNumber = te.random_id()
        conn:execute("world_update", { row.id, row.randomNumber })
    end
    return rows
end)
respond("application/json", cjson.encode(rows))
