-- upload and upload-chunked: ngx.req.read_body reads the whole body, either framing, yielding to the event
-- loop meanwhile; a body over client_max_body_size ends the request there with 413 (nginx.conf.template).
local sha256 = require "nginx.sha256"     -- lua-resty-string, as Debian names it
local to_hex = require("nginx.string").to_hex
local respond = require "app.respond"

local BLOCK = 65536

ngx.req.read_body()
local h = sha256:new()
local bytes = 0
local data = ngx.req.get_body_data()
if data then
    h:update(data)
    bytes = #data
else
    -- nil for an empty body too. A body larger than client_body_buffer_size is all in a temp file: the
    -- buffer is sized to hold any accepted body, but a change of either setting must not make this lie.
    local path = ngx.req.get_body_file()
    if path then
        local f = assert(io.open(path, "rb"))
        while true do
            local block = f:read(BLOCK)
            if not block then
                break
            end
            h:update(block)
            bytes = bytes + #block
        end
        f:close()
    end
end
respond("text/plain; charset=utf-8", bytes .. " " .. to_hex(h:final()))
