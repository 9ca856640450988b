-- The json-comp workload: the array is built and encoded by lua-cjson on every request; nginx's gzip filter
-- (nginx.conf.template) compresses what the handler prints.
local cjson = require "cjson"
local respond = require "app.respond"

local MAX_N = 1000

local raw = ngx.var.arg_n
local n = raw and tonumber(ngx.unescape_uri(raw):match("^%d+$"))
if not n or n < 1 or n > MAX_N then
    return respond("text/plain; charset=utf-8", "n must be an integer from 1 to " .. MAX_N .. "\n", 400)
end

local items = {}
for i = 1, n do
    items[i] = { id = i, message = "Hello, World!" }
end
respond("application/json", cjson.encode(items))
