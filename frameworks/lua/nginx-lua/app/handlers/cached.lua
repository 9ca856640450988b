local cjson = require "cjson"
local te = require "shootout.techempower"
local world = require "app.world"
local respond = require "app.respond"

respond("application/json", cjson.encode(world.cached(te.count(ngx.var.arg_count))))
