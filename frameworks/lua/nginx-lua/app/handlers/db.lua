local cjson = require "cjson"
local pg = require "shootout.pg"
local te = require "shootout.techempower"
local world = require "app.world"
local respond = require "app.respond"

local row = pg.with(function(conn)
    return world.read(conn, te.random_id())
end)
respond("application/json", cjson.encode(row))
