# frozen_string_literal: true

require "pg"
require "connection_pool"
require_relative "env"

module Shootout
  # The pg gem's connections in a ConnectionPool of DB_POOL per process (docs/fairness.md).
  # Connections open lazily, on a thread's first checkout, so each Puma worker opens its own after
  # the fork; each TechEmpower statement is prepared once per connection.
  module PgPool
    STATEMENTS = {
      "world" => "SELECT id, randomnumber FROM world WHERE id = $1",
      "world_update" => "UPDATE world SET randomnumber = $2 WHERE id = $1",
      "fortunes" => "SELECT id, message FROM fortune"
    }.freeze

    module_function

    # Puma's threads beyond DB_POOL wait here for a connection (up to `timeout` seconds).
    def create(size: Env.db_pool, timeout: 10)
      url = Env.value("DATABASE_URL")
      ConnectionPool.new(size: size, timeout: timeout) { connect(url) }
    end

    def connect(url)
      conn = PG::Connection.new(url)
      STATEMENTS.each { |name, sql| conn.prepare(name, sql) }
      conn
    end

    # Every world row, read once on a connection of its own that is closed again (before a fork).
    def all_worlds
      conn = PG::Connection.new(Env.value("DATABASE_URL"))
      conn.exec("SELECT id, randomnumber FROM world").map { |r| [r["id"].to_i, r["randomnumber"].to_i] }
    ensure
      conn&.close
    end
  end
end
