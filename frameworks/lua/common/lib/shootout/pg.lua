-- A PostgreSQL client on ngx_lua's cosockets, for the Lua stacks that run inside nginx.
--
-- Why it exists: the OpenResty way to reach PostgreSQL is a driver written on ngx.socket.tcp (pgmoon),
-- so a query yields the request's coroutine and the worker's event loop serves other requests until
-- the answer arrives. Debian bookworm packages none (apt-cache finds no pgmoon, lua-pgmoon or
-- lua-resty-postgres), and the LuaSQL/LuaDBI drivers it has wrap libpq's blocking calls, which would stop
-- the whole nginx worker on every query. So this file speaks the frontend/backend protocol (version 3.0,
-- https://www.postgresql.org/docs/15/protocol.html) itself, on the same cosockets and with the same
-- connection pool (tcpsock:connect's pool, pool_size and backlog; tcpsock:setkeepalive) a cosocket driver
-- uses. It is a driver, not a shortcut: every call sends its statement to the server and reads its answer.
--
-- What it does: SCRAM-SHA-256, md5, cleartext or trust authentication; named statements prepared once
-- per connection right after it is opened (the extended query protocol, text format both ways); one
-- statement in flight per connection, each followed by Sync, so every statement autocommits unless the
-- caller opened a transaction with query("BEGIN").
local bit = require "bit"
local ffi = require "ffi"
local sha256 = require "nginx.sha256"     -- lua-resty-string, as Debian names it
local random = require "nginx.random"
local semaphore = require "ngx.semaphore"

local band, bor, bxor, lshift, rshift = bit.band, bit.bor, bit.bxor, bit.lshift, bit.rshift
local byte, char, sub, find, gsub = string.byte, string.char, string.sub, string.find, string.gsub
local concat = table.concat
local tcp = ngx.socket.tcp
local encode_base64, decode_base64 = ngx.encode_base64, ngx.decode_base64
local md5_hex = ngx.md5
local setmetatable, tostring, tonumber, error, pcall = setmetatable, tostring, tonumber, error, pcall

-- HMAC and PBKDF2 for SCRAM from the libcrypto nginx is linked with. Declared one by one under pcall: a
-- library loaded earlier (nginx.aes, say) may have declared the same function already, and LuaJIT
-- refuses a second declaration while the first one serves as well.
for _, decl in ipairs({
    "const void *EVP_sha256(void);",
    "unsigned char *HMAC(const void *evp_md, const void *key, int key_len, const unsigned char *d, size_t n,"
        .. " unsigned char *md, unsigned int *md_len);",
    "int PKCS5_PBKDF2_HMAC(const char *pass, int passlen, const unsigned char *salt, int saltlen, int iter,"
        .. " const void *digest, int keylen, unsigned char *out);",
}) do
    pcall(ffi.cdef, decl)
end
local C = ffi.C

local _M = {}

local function int32(n)
    return char(band(rshift(n, 24), 255), band(rshift(n, 16), 255), band(rshift(n, 8), 255), band(n, 255))
end

local function int16(n)
    return char(band(rshift(n, 8), 255), band(n, 255))
end

-- Signed, as the protocol's Int32 is: a column length of -1 is NULL.
local function get_int32(s, i)
    local a, b, c, d = byte(s, i, i + 3)
    return bor(lshift(a, 24), lshift(b, 16), lshift(c, 8), d)
end

local function get_int16(s, i)
    local a, b = byte(s, i, i + 1)
    return a * 256 + b
end

local function message(kind, body)
    return kind .. int32(#body + 4) .. body
end

local SYNC = message("S", "")
local EXECUTE = message("E", "\0" .. int32(0))   -- the unnamed portal, all its rows

local function hmac(key, data)
    local out = ffi.new("unsigned char[32]")
    local len = ffi.new("unsigned int[1]")
    if C.HMAC(C.EVP_sha256(), key, #key, data, #data, out, len) == nil then
        error("HMAC-SHA-256 failed")
    end
    return ffi.string(out, len[0])
end

local function pbkdf2(password, salt, iterations)
    local out = ffi.new("unsigned char[32]")
    if C.PKCS5_PBKDF2_HMAC(password, #password, salt, #salt, iterations, C.EVP_sha256(), 32, out) ~= 1 then
        error("PBKDF2-HMAC-SHA-256 failed")
    end
    return ffi.string(out, 32)
end

local function sha256_of(data)
    local h = sha256:new()
    h:update(data)
    return h:final()
end

local function xor_bytes(a, b)
    local out = {}
    for i = 1, #a do
        out[i] = char(bxor(byte(a, i), byte(b, i)))
    end
    return concat(out)
end

-- ErrorResponse/NoticeResponse fields: a type byte and a C string each; S(everity), C(ode), M(essage).
local function error_text(body)
    local fields, i = {}, 1
    while i <= #body and byte(body, i) ~= 0 do
        local z = find(body, "\0", i + 1, true)
        fields[sub(body, i, i)] = sub(body, i + 1, z - 1)
        i = z + 1
    end
    return (fields.S or "ERROR") .. ": " .. (fields.M or "?") .. " (SQLSTATE " .. (fields.C or "?") .. ")"
end

local Conn = {}
Conn.__index = Conn

-- This worker's pool_size connection slots (a semaphore), made on first use: after the fork, in a request.
local slots

-- One backend message: its type byte and its body.
function Conn:read()
    local sock = self.sock
    local head, err = sock:receive(5)
    if not head then
        error("postgresql: receive failed: " .. tostring(err))
    end
    local len = get_int32(head, 2) - 4
    local body = ""
    if len > 0 then
        body, err = sock:receive(len)
        if not body then
            error("postgresql: receive failed: " .. tostring(err))
        end
    end
    return sub(head, 1, 1), body
end

function Conn:send(data)
    local ok, err = self.sock:send(data)
    if not ok then
        error("postgresql: send failed: " .. tostring(err))
    end
end

-- Reads up to ReadyForQuery; returns the DataRows as arrays of strings (nil for NULL). An ErrorResponse
-- is raised once the server is ready again, so the connection stays usable if the caller recovers.
function Conn:results()
    local rows, n, failure = {}, 0, nil
    while true do
        local kind, body = self:read()
        if kind == "D" then
            local cols = get_int16(body, 1)
            local row, i = {}, 3
            for c = 1, cols do
                local len = get_int32(body, i)
                i = i + 4
                if len >= 0 then
                    row[c] = sub(body, i, i + len - 1)
                    i = i + len
                end
            end
            n = n + 1
            rows[n] = row
        elseif kind == "Z" then
            self.status = body   -- I(dle), T(ransaction), E(rror in a transaction)
            if failure then
                error(failure, 0)
            end
            return rows
        elseif kind == "E" then
            failure = "postgresql: " .. error_text(body)
        end
        -- 1 ParseComplete, 2 BindComplete, C CommandComplete, T RowDescription, n NoData, I EmptyQuery,
        -- N notices, S parameter changes and A notifications carry nothing a caller here needs.
    end
end

-- Runs a statement prepared at connect time with text parameters; returns its rows.
function Conn:execute(name, params)
    local parts, n = { "\0", name, "\0", int16(0), int16(#params) }, 5
    for i = 1, #params do
        local v = tostring(params[i])
        parts[n + 1] = int32(#v)
        parts[n + 2] = v
        n = n + 2
    end
    parts[n + 1] = int16(0)
    self:send({ message("B", concat(parts)), EXECUTE, SYNC })
    return self:results()
end

-- A statement by the simple query protocol: BEGIN, COMMIT, ROLLBACK, and one-off reads.
function Conn:query(sql)
    self:send(message("Q", sql .. "\0"))
    return self:results()
end

-- Back to the worker's pool for the next request, when its protocol state is clean; else closed.
function Conn:release()
    if self.status == "I" then
        local ok = self.sock:setkeepalive(_M.config.idle_timeout)
        if ok then
            return self:free()
        end
    end
    self:close()
end

function Conn:close()
    self.sock:close()
    self:free()
end

-- Gives the connection's slot back to the next request waiting for one (once, whichever way it ends).
function Conn:free()
    if self.slot then
        self.slot = false
        slots:post(1)
    end
end

function Conn:authenticate_scram(mechanisms)
    local cfg = _M.config
    if not find(mechanisms, "SCRAM-SHA-256\0", 1, true) then
        error("postgresql: no supported SASL mechanism in " .. gsub(mechanisms, "%z", " "))
    end
    local nonce = encode_base64(random.bytes(18, true))
    -- PostgreSQL takes the user from the startup message and ignores SCRAM's n= (RFC 5802 allows empty).
    local first_bare = "n=,r=" .. nonce
    local first = "n,," .. first_bare
    self:send(message("p", "SCRAM-SHA-256\0" .. int32(#first) .. first))

    local kind, body = self:read()
    if kind == "E" then error("postgresql: " .. error_text(body)) end
    if kind ~= "R" or get_int32(body, 1) ~= 11 then error("postgresql: expected SASLContinue") end
    local server_first = sub(body, 5)
    local server_nonce = server_first:match("r=([^,]+)")
    local salt = decode_base64(server_first:match("s=([^,]+)") or "")
    local iterations = tonumber(server_first:match("i=(%d+)"))
    if not server_nonce or sub(server_nonce, 1, #nonce) ~= nonce or not salt or not iterations then
        error("postgresql: bad SCRAM server-first-message")
    end

    local salted = pbkdf2(cfg.password, salt, iterations)
    local client_key = hmac(salted, "Client Key")
    local final_bare = "c=biws,r=" .. server_nonce
    local auth_message = first_bare .. "," .. server_first .. "," .. final_bare
    local proof = xor_bytes(client_key, hmac(sha256_of(client_key), auth_message))
    self:send(message("p", final_bare .. ",p=" .. encode_base64(proof)))

    kind, body = self:read()
    if kind == "E" then error("postgresql: " .. error_text(body)) end
    if kind ~= "R" or get_int32(body, 1) ~= 12 then error("postgresql: expected SASLFinal") end
    local verifier = sub(body, 5):match("v=([^,]+)")
    local expected = hmac(hmac(salted, "Server Key"), auth_message)
    if not verifier or decode_base64(verifier) ~= expected then
        error("postgresql: the server's SCRAM signature does not verify")
    end
end

-- Startup, authentication, then every configured statement prepared, all before the first use.
function Conn:handshake()
    local cfg = _M.config
    self:send(int32(8 + #cfg.startup + 1) .. int32(196608) .. cfg.startup .. "\0")
    while true do
        local kind, body = self:read()
        if kind == "R" then
            local code = get_int32(body, 1)
            if code == 3 then
                self:send(message("p", cfg.password .. "\0"))
            elseif code == 5 then
                local inner = md5_hex(cfg.password .. cfg.user)
                self:send(message("p", "md5" .. md5_hex(inner .. sub(body, 5, 8)) .. "\0"))
            elseif code == 10 then
                self:authenticate_scram(sub(body, 5))
            elseif code ~= 0 then
                error("postgresql: unsupported authentication request " .. code)
            end
        elseif kind == "E" then
            error("postgresql: " .. error_text(body))
        elseif kind == "Z" then
            break
        end
        -- S ParameterStatus, K BackendKeyData and N notices need no answer.
    end

    local parts = {}
    for name, sql in pairs(cfg.statements) do
        parts[#parts + 1] = message("P", name .. "\0" .. sql .. "\0" .. int16(0))
    end
    parts[#parts + 1] = SYNC
    self:send(parts)
    self:results()
end

-- cfg: host, port, user, password, database, pool_size (connections per nginx worker), statements
-- ({ name = sql }), and optionally timeouts (ms).
function _M.configure(cfg)
    cfg.startup = "user\0" .. cfg.user .. "\0database\0" .. cfg.database .. "\0"
        .. "client_encoding\0UTF8\0application_name\0webshootout\0"
    cfg.pool = "pg:" .. cfg.user .. "@" .. cfg.host .. ":" .. cfg.port .. "/" .. cfg.database
    cfg.idle_timeout = cfg.idle_timeout or 0   -- 0: a pooled connection never times out
    cfg.wait_timeout = (cfg.connect_timeout or 60000) / 1000
    _M.config = cfg
end

-- A connection from this worker's pool (tcpsock:connect with pool_size reuses an idle one), or a new one.
-- At most pool_size are out at once: a request takes one of pool_size slots first, waiting in FIFO order
-- on a semaphore when all are out. The cosocket pool's own limit (connect's backlog option) is not used
-- because it overshoots: a queued connect it resumes does not count again, so when a new request takes
-- the connection just released, the resumed one opens a connection past pool_size (lua-nginx-module
-- 0.10.23, ngx_http_lua_socket_tcp_connect_helper: `resuming` skips the check); seen here as three
-- connections in a worker with DB_POOL=2.
function _M.connect()
    local cfg = _M.config
    if not slots then
        slots = semaphore.new(cfg.pool_size)
    end
    local got, werr = slots:wait(cfg.wait_timeout)
    if not got then
        error("postgresql: no free connection in this worker's pool: " .. tostring(werr))
    end
    local sock = tcp()
    sock:settimeouts(cfg.connect_timeout or 60000, cfg.send_timeout or 60000, cfg.read_timeout or 60000)
    local ok, err
    local opts = { pool = cfg.pool, pool_size = cfg.pool_size }
    if byte(cfg.host, 1) == 47 then   -- "/": a directory holding PostgreSQL's unix socket
        ok, err = sock:connect("unix:" .. cfg.host .. "/.s.PGSQL." .. cfg.port, opts)
    else
        ok, err = sock:connect(cfg.host, cfg.port, opts)
    end
    local conn = setmetatable({ sock = sock, status = "I", slot = true }, Conn)
    if not ok then
        conn:free()
        error("postgresql: connect to " .. cfg.pool .. " failed: " .. tostring(err))
    end
    if sock:getreusedtimes() == 0 then
        local done, failure = pcall(conn.handshake, conn)
        if not done then
            conn:close()
            error(failure, 0)
        end
    end
    return conn
end

-- Runs fn(conn) on a pooled connection and returns what it returns. The connection goes back to the
-- pool afterwards, or is closed if fn raised: its state on the wire is then unknown.
function _M.with(fn)
    local conn = _M.connect()
    local ok, a, b = pcall(fn, conn)
    if not ok then
        conn:close()
        error(a, 0)
    end
    conn:release()
    return a, b
end

return _M
