# frozen_string_literal: true

require "json"
require "sinatra/base"
require "sequel"
require "faye/websocket"
require "shootout/env"
require "shootout/hashing"
require "shootout/items"
require "shootout/json_comp"
require "shootout/pg_sessions"
require "shootout/techempower"
require "shootout/upload"

# The webshootout workloads on Sinatra (docs/workloads.md), the database through Sequel.
class App < Sinatra::Base
  TE = Shootout::TechEmpower

  # Sequel's pool holds at most DB_POOL connections per process; Puma's threads beyond that wait.
  DB = Sequel.connect(Shootout::Env.value("DATABASE_URL"), max_connections: Shootout::Env.db_pool,
                                                           pool_timeout: 10)
  WORLD = DB[:world]
  # Prepared once per connection by Sequel, run as "EXECUTE" with a bound id.
  WORLD_BY_ID = WORLD.select(:id, :randomnumber).where(id: :$id).prepare(:first, :world_by_id)
  WORLD_UPDATE = WORLD.where(id: :$id).prepare(:update, :world_update, randomnumber: :$number)
  FORTUNES = DB[:fortune].select(:id, :message).prepare(:select, :fortunes)
  # crud's statements on items, prepared the same way; each write returns the row as stored (RETURNING), the
  # new id from the table's identity column.
  ITEMS = DB[:items].select(:id, :name, :quantity)
  ITEM_BY_ID = ITEMS.where(id: :$id).prepare(:first, :item_by_id)
  ITEM_PAGE = ITEMS.order(:id).limit(:$limit, :$offset).prepare(:select, :item_page)
  ITEM_INSERT = DB[:items].returning(:id, :name, :quantity)
                          .prepare(:insert_select, :item_insert, name: :$name, quantity: :$quantity)
  ITEM_UPDATE = DB[:items].where(id: :$id).returning(:id, :name, :quantity)
                          .prepare(:update, :item_update, name: :$name, quantity: :$quantity)
  ITEM_DELETE = DB[:items].where(id: :$id).prepare(:delete, :item_delete)
  # Read before Puma forks (preload_app!), so the workers share the rows.
  WORLD_CACHE = TE::WorldCache.new(WORLD.select_map(%i[id randomnumber]))
  # Sequel's documented rule for forking servers: no connection may cross the fork.
  DB.disconnect

  HASH_FILE = Shootout::Env.value("HASH_FILE")

  # Sinatra's static files: STATIC_DIR's files at the root path (/index.html).
  set :public_folder, Shootout::Env.value("STATIC_DIR")
  set :static_cache_control, false
  # ERB through Tilt's Erubi, escaping every <%= %> (Sinatra's README, "Escaping").
  set :erb, escape_html: true
  set :logging, nil
  set :dump_errors, false
  set :show_exceptions, false
  set :x_cascade, false
  # The session workload's cookie is the shared code's own (see below), so Sinatra's sessions stay off.
  set :sessions, false

  before { content_type "text/plain", charset: "utf-8" }

  helpers do
    def json(value)
      content_type :json
      JSON.generate(value)
    end

    # The path's id, or the 404 of an item no row can have.
    def item_id
      Shootout::Items.id(params["id"]) || halt(404, json("error" => "no such item"))
    end

    # A POST or PUT body as the item's columns: 400 when it is not JSON, 422 when it is not an object with a
    # string name and a 32-bit integer quantity. Sinatra has no validation of its own, so these are plain
    # checks (Shootout::Items.errors).
    def item_fields
      body = begin
        JSON.parse(request.body.read)
      rescue JSON::ParserError
        halt 400, json("error" => "the body is not JSON")
      end
      errors = Shootout::Items.errors(body)
      halt 422, json("errors" => errors) unless errors.empty?
      { name: body["name"], quantity: body["quantity"] }
    end

    def world(id)
      row = WORLD_BY_ID.call(id: id)
      TE.world(row[:id], row[:randomnumber])
    end
  end

  get "/plaintext" do
    "Hello, World!"
  end

  get "/json" do
    json("message" => "Hello, World!")
  end

  # Compressed by Rack::Deflater (config.ru), as every answer is when the client asks for it.
  get "/json-comp" do
    json(Shootout::JsonComp.items(params["n"]))
  end

  # Sinatra's request.body is Puma's rack.input, the whole body already read off the socket (chunked
  # bodies decoded); the 2 MiB limit is applied while reading it (Shootout::Upload says why there).
  post "/upload" do
    Shootout::Upload.answer(request.body, request.content_length)
  rescue Shootout::Upload::TooLarge
    halt 413, "request body over #{Shootout::Upload::LIMIT} bytes"
  end

  get "/db" do
    json(world(TE.random_id))
  end

  # Rack's session middleware has no PostgreSQL store in Debian (nor does Sinatra), so the visit is the
  # shared transaction, on a connection of Sequel's pool.
  get "/session" do
    visit = Shootout::PgSessions.visit(SequelConnections, request.cookies[Shootout::PgSessions::COOKIE])
    if visit.new?
      response.set_cookie(Shootout::PgSessions::COOKIE,
                          value: visit.uid, path: "/", httponly: true, same_site: :lax)
    end
    "Count is #{visit.count}"
  end

  get "/hash" do
    Shootout::Hashing.iterated_sha256(HASH_FILE, Shootout::Hashing.parse_n(params["n"]))
  rescue ArgumentError => e
    halt 400, e.message
  end

  get "/queries" do
    n = TE.count(params["queries"])
    json(DB.synchronize { Array.new(n) { world(TE.random_id) } })
  end

  # Each row read by a query of its own, then one autocommitted UPDATE per row, in id order so that
  # concurrent requests never wait on each other's rows in a cycle.
  get "/updates" do
    n = TE.count(params["queries"])
    worlds = DB.synchronize do
      rows = Array.new(n) { world(TE.random_id) }
      rows.each { |w| w["randomNumber"] = TE.random_id }
      rows.sort_by { |w| w["id"] }.each { |w| WORLD_UPDATE.call(id: w["id"], number: w["randomNumber"]) }
    end
    json(worlds)
  end

  get "/fortunes" do
    @fortunes = TE.fortunes_sorted(FORTUNES.call.map { |r| TE::Fortune.new(r[:id], r[:message]) })
    content_type :html, charset: "utf-8"
    erb :fortunes
  end

  get "/cached-queries" do
    json(WORLD_CACHE.pick(TE.count(params["count"])))
  end

  # crud: the items REST API on Sinatra's per-method routes, every answer read from or written to the table.
  get "/items/:id" do
    json(ITEM_BY_ID.call(id: item_id) || halt(404, json("error" => "no such item")))
  end

  get "/items" do
    limit, offset = Shootout::Items.window(params["page"], params["size"]) ||
                    halt(400, json("error" => "page must be an integer from 1, size one from 1 to 100"))
    json(ITEM_PAGE.call(limit: limit, offset: offset))
  end

  post "/items" do
    item = ITEM_INSERT.call(item_fields)
    status 201
    headers "Location" => url("/items/#{item[:id]}")
    json(item)
  end

  put "/items/:id" do
    id = item_id
    item = ITEM_UPDATE.call(id: id, **item_fields).first
    halt 404, json("error" => "no such item") unless item
    json(item)
  end

  delete "/items/:id" do
    halt 404, json("error" => "no such item") if ITEM_DELETE.call(id: item_id).zero?
    204
  end

  # faye-websocket takes the connection over through Puma's rack.hijack and echoes each text frame.
  get "/ws" do
    halt 400, "expected a WebSocket upgrade" unless Faye::WebSocket.websocket?(request.env)

    ws = Faye::WebSocket.new(request.env)
    ws.on(:message) { |event| ws.send(event.data) }
    ws.rack_response
  end

  # Sequel's pool in the shape the shared session code takes (#with yields a PG::Connection).
  module SequelConnections
    def self.with(&block) = DB.synchronize(&block)
  end
end
