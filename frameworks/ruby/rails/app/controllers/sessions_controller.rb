# frozen_string_literal: true

require "shootout/pg_sessions"

# Debian ships no activerecord-session_store (Rails' database-backed session store), so the counter
# is the shared usersessions transaction, on the pg connection of ActiveRecord's pool this thread holds.
class SessionsController < ActionController::API
  module ActiveRecordConnections
    def self.with
      ActiveRecord::Base.connection_pool.with_connection { |conn| yield conn.raw_connection }
    end
  end

  def show
    visit = Shootout::PgSessions.visit(ActiveRecordConnections, request.cookies[Shootout::PgSessions::COOKIE])
    if visit.new?
      response.set_cookie(Shootout::PgSessions::COOKIE,
                          value: visit.uid, path: "/", httponly: true, same_site: :lax)
    end
    render plain: "Count is #{visit.count}"
  end
end
