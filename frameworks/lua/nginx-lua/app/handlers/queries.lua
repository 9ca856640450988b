-- N rows, each read by a query of its own, one after another on one pooled connection.
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
    return rows
end)
respond("application/json", cjson.encode(rows))
