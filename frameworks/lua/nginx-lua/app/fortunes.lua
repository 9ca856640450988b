-- The fortunes page by Cosmo, the Lua template engine Debian packages (lua-cosmo): lua-resty-template,
-- OpenResty's usual engine, is not in Debian bookworm. Cosmo has no auto-escaping ("safe" in its docs
-- means templates run no arbitrary code), so the template calls an escape function on each message.
local cosmo = require "cosmo"

local _M = {}

local ENTITIES = { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;", ["'"] = "&#39;" }

local function escape(args)
    return (tostring(args[1]):gsub("[&<>\"']", ENTITIES))
end

local render

-- Once, in the nginx master: Cosmo compiles the template to a Lua function.
function _M.compile()
    local dir = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$")
    local f = assert(io.open(dir .. "/views/fortunes.cosmo", "rb"))
    local source = f:read("*a")
    f:close()
    render = cosmo.compile(source, "fortunes.cosmo")
end

function _M.render(fortunes)
    return render({ fortunes = fortunes, escape = escape })
end

return _M
