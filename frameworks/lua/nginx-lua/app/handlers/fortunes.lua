local pg = require "shootout.pg"
local te = require "shootout.techempower"
local fortunes = require "app.fortunes"
local respond = require "app.respond"

local rows = pg.with(function(conn)
    local rows = {}
    for i, row in ipairs(conn:execute("fortune_all", {})) do
        rows[i] = { id = tonumber(row[1]), message = row[2] }
    end
    return rows
end)
respond("text/html; charset=utf-8", fortunes.render(te.fortunes_sorted(rows)))
