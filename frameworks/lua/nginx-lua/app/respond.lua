-- One complete body with its Content-Length, rather than ngx.print's chunked default: the bodies here
-- are small and whole before they are sent.
local header = ngx.header
local print = ngx.print

return function(content_type, body, status)
    if status then
        ngx.status = status
    end
    header["Content-Type"] = content_type
    header["Content-Length"] = #body
    print(body)
end
