# frozen_string_literal: true

require "time"

module Shootout
  # Puma, Rack, Sinatra and Rails set neither Date nor Server; the contract wants both on every answer.
  # The Date text is formatted at most once a second per process, as servers that set it do.
  class Headers
    def initialize(app, server)
      @app = app
      @server = server.freeze
      @second = nil
      @date = nil
    end

    def call(env)
      status, headers, body = @app.call(env)
      headers["Date"] = date
      headers["Server"] = @server
      [status, headers, body]
    end

    private

    def date
      now = Process.clock_gettime(Process::CLOCK_REALTIME, :second)
      # Two threads may both refresh it in the same second; either value is right.
      unless now == @second
        @date = Time.at(now).httpdate.freeze
        @second = now
      end
      @date
    end
  end
end
