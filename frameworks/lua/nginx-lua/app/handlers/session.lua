-- The visitor's uid in a plain cookie, read with nginx's own $cookie_ variable; the counter in PostgreSQL.
local sessions = require "shootout.sessions"
local respond = require "app.respond"

local count, fresh = sessions.visit(ngx.var["cookie_" .. sessions.COOKIE])
if fresh then
    ngx.header["Set-Cookie"] = sessions.COOKIE .. "=" .. fresh .. "; Path=/; HttpOnly; SameSite=Lax"
end
respond("text/plain; charset=utf-8", "Count is " .. count)
