# frozen_string_literal: true

require "json"
require "securerandom"

module Shootout
  # The session workload on the pg gem: the counter in usersessions(uid, data), one visit one transaction.
  module PgSessions
    COOKIE = "uid"
    Visit = Struct.new(:uid, :count, :new?)

    module_function

    def data(count) = JSON.generate({ "count" => count })

    SELECT = "SELECT data FROM usersessions WHERE uid = $1 FOR UPDATE"
    INSERT = "INSERT INTO usersessions (uid, data) VALUES ($1, $2)"
    UPDATE = "UPDATE usersessions SET data = $2 WHERE uid = $1"

    # BEGIN; SELECT ... FOR UPDATE; UPDATE (INSERT for a new or unknown visitor); COMMIT.
    # pool: anything whose #with yields a PG::Connection (a ConnectionPool, or Sequel's pool through
    # Database#synchronize); statements go as exec_params, so no connection needs them prepared.
    def visit(pool, uid)
      pool.with do |conn|
        conn.transaction do
          row = uid && conn.exec_params(SELECT, [uid]).first
          if row
            count = JSON.parse(row["data"]).fetch("count") + 1
            conn.exec_params(UPDATE, [uid, data(count)])
            Visit.new(uid, count, false)
          else
            fresh = SecureRandom.urlsafe_base64(16)
            conn.exec_params(INSERT, [fresh, data(1)])
            Visit.new(fresh, 1, true)
          end
        end
      end
    end
  end
end
