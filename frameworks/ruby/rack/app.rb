# frozen_string_literal: true

require "erb"
require "json"
require "rack"
require "faye/websocket"
require "shootout/env"
require "shootout/hashing"
require "shootout/json_comp"
require "shootout/pg_pool"
require "shootout/pg_queries"
require "shootout/pg_sessions"
require "shootout/techempower"
require "shootout/upload"

# The webshootout workloads on bare Rack (docs/workloads.md): one lambda per path, no router.
module RackApp
  TE = Shootout::TechEmpower
  TEXT = { "Content-Type" => "text/plain; charset=utf-8" }.freeze
  JSON_TYPE = { "Content-Type" => "application/json" }.freeze
  HTML = { "Content-Type" => "text/html; charset=utf-8" }.freeze

  # The pool opens its connections lazily, so each forked worker opens its own.
  POOL = Shootout::PgPool.create
  # Read before Puma forks (preload_app!), so the workers share the rows.
  WORLD_CACHE = TE::WorldCache.new(Shootout::PgPool.all_worlds)
  HASH_FILE = Shootout::Env.value("HASH_FILE")

  # ERB from Ruby's standard library, compiled once; h is ERB::Util.html_escape.
  class FortunesPage
    include ERB::Util

    TEMPLATE = ERB.new(File.read(File.join(__dir__, "views/fortunes.html.erb")))
    TEMPLATE.def_method(self, "render(fortunes)", "fortunes.html.erb")
  end

  module_function

  def json(value) = [200, JSON_TYPE.dup, [JSON.generate(value)]]

  def text(body, status = 200) = [status, TEXT.dup, [body]]

  def plaintext(_env) = text("Hello, World!")

  def message(_env) = json({ "message" => "Hello, World!" })

  # Compressed by Rack::Deflater (config.ru) when the request accepts gzip.
  def json_comp(env) = json(Shootout::JsonComp.items(Rack::Request.new(env).params["n"]))

  # rack.input as Puma hands it over, the whole body already read off the socket (chunked bodies
  # decoded); the 2 MiB limit is applied while reading it (Shootout::Upload says why there).
  def upload(env)
    return text("POST a body", 405) unless env["REQUEST_METHOD"] == "POST"

    text(Shootout::Upload.answer(env["rack.input"], env["CONTENT_LENGTH"]))
  rescue Shootout::Upload::TooLarge
    text("request body over #{Shootout::Upload::LIMIT} bytes", 413)
  end

  def db(_env) = json(Shootout::PgQueries.random_world(POOL))

  def session(env)
    request = Rack::Request.new(env)
    visit = Shootout::PgSessions.visit(POOL, request.cookies[Shootout::PgSessions::COOKIE])
    response = Rack::Response.new(["Count is #{visit.count}"], 200, TEXT.dup)
    if visit.new?
      response.set_cookie(Shootout::PgSessions::COOKIE,
                          { value: visit.uid, path: "/", httponly: true, same_site: :lax })
    end
    response.finish
  end

  def hash_chain(env)
    n = Shootout::Hashing.parse_n(Rack::Request.new(env).params["n"])
    text(Shootout::Hashing.iterated_sha256(HASH_FILE, n))
  rescue ArgumentError => e
    text(e.message, 400)
  end

  def queries(env)
    json(Shootout::PgQueries.random_worlds(POOL, TE.count(Rack::Request.new(env).params["queries"])))
  end

  def updates(env)
    json(Shootout::PgQueries.updated_worlds(POOL, TE.count(Rack::Request.new(env).params["queries"])))
  end

  def fortunes(_env)
    [200, HTML.dup, [FortunesPage.new.render(Shootout::PgQueries.fortunes(POOL))]]
  end

  def cached(env)
    json(WORLD_CACHE.pick(TE.count(Rack::Request.new(env).params["count"])))
  end

  # faye-websocket takes the connection over through Puma's rack.hijack and echoes each text frame.
  def websocket(env)
    return text("expected a WebSocket upgrade", 400) unless Faye::WebSocket.websocket?(env)

    ws = Faye::WebSocket.new(env)
    ws.on(:message) { |event| ws.send(event.data) }
    ws.rack_response
  end

  ROUTES = {
    "/plaintext" => method(:plaintext), "/json" => method(:message),
    "/json-comp" => method(:json_comp), "/upload" => method(:upload), "/db" => method(:db),
    "/session" => method(:session), "/hash" => method(:hash_chain), "/queries" => method(:queries),
    "/updates" => method(:updates), "/fortunes" => method(:fortunes),
    "/cached-queries" => method(:cached), "/ws" => method(:websocket)
  }.freeze

  def call(env)
    handler = ROUTES[env["PATH_INFO"]]
    handler ? handler.call(env) : [404, TEXT.dup, ["Not Found"]]
  end
end
