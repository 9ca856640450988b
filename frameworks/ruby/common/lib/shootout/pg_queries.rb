# frozen_string_literal: true

require_relative "techempower"

module Shootout
  # The database workloads on the pg gem's own API (TechEmpower's "raw"): one prepared SELECT per row.
  module PgQueries
    TE = TechEmpower

    module_function

    def world(conn, id)
      row = conn.exec_prepared("world", [id]).first
      TE.world(row["id"].to_i, row["randomnumber"].to_i)
    end

    def random_world(pool)
      pool.with { |conn| world(conn, TE.random_id) }
    end

    def random_worlds(pool, n)
      pool.with { |conn| Array.new(n) { world(conn, TE.random_id) } }
    end

    # Each row read by a query of its own, then one autocommitted UPDATE per row (per-row), in id order
    # so that concurrent requests never wait on each other's rows in a cycle.
    def updated_worlds(pool, n)
      pool.with do |conn|
        worlds = Array.new(n) { world(conn, TE.random_id) }
        worlds.each { |w| w["randomNumber"] = TE.random_id }
        worlds.sort_by { |w| w["id"] }.each do |w|
          conn.exec_prepared("world_update", [w["id"], w["randomNumber"]])
        end
        worlds
      end
    end

    # Every fortune row by one query, plus the request-time one, sorted by message.
    def fortunes(pool)
      rows = pool.with do |conn|
        conn.exec_prepared("fortunes").map { |r| TE::Fortune.new(r["id"].to_i, r["message"]) }
      end
      TE.fortunes_sorted(rows)
    end
  end
end
