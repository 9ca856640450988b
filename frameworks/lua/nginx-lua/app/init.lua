-- init_by_lua_file: runs once in the nginx master before it forks the workers, so the modules, the
-- compiled template and the database settings are loaded once and shared copy-on-write.
require "resty.core"
require "cjson"

local env = require "shootout.env"
local pg = require "shootout.pg"
local sessions = require "shootout.sessions"
require "app.world"

local cfg = env.postgres()
cfg.statements = {
    world_select = "SELECT id, randomnumber FROM world WHERE id = $1",
    world_update = "UPDATE world SET randomnumber = $2 WHERE id = $1",
    world_all = "SELECT id, randomnumber FROM world",
    fortune_all = "SELECT id, message FROM fortune",
}
for name, sql in pairs(sessions.STATEMENTS) do
    cfg.statements[name] = sql
end
pg.configure(cfg)

env.required("HASH_FILE")
require("app.fortunes").compile()
