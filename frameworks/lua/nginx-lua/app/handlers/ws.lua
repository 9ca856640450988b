-- WebSocket echo with lua-resty-websocket (Debian's lua-nginx-websocket): every text message back as it
-- came, binary too; pings answered; a fragmented message reassembled before it is echoed.
local server = require "nginx.websocket.server"

local ws, err = server:new({ timeout = 300000, max_payload_len = 16 * 1024 * 1024 })
if not ws then
    ngx.log(ngx.WARN, "websocket handshake failed: ", err)
    return ngx.exit(400)
end

local parts, kind
while true do
    local data, typ, ferr = ws:recv_frame()
    if not data then
        if ferr and ferr:find(": timeout", 1, true) then
            -- idle past the timeout: keep the connection, as the client decides when it ends
            if not ws:send_ping() then
                return ngx.exit(444)
            end
        else
            return ngx.exit(444)
        end
    elseif typ == "close" then
        ws:send_close()
        return ngx.exit(ngx.OK)
    elseif typ == "ping" then
        ws:send_pong(data)
    elseif typ == "text" or typ == "binary" or (typ == "continuation" and parts) then
        if typ ~= "continuation" then
            kind, parts = typ, {}
        end
        parts[#parts + 1] = data
        if ferr ~= "again" then
            local message = table.concat(parts)
            parts = nil
            local ok
            if kind == "text" then
                ok = ws:send_text(message)
            else
                ok = ws:send_binary(message)
            end
            if not ok then
                return ngx.exit(444)
            end
        end
    end
end
