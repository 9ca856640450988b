# frozen_string_literal: true

# No Bundler: every gem is Debian's, on Ruby's default load path (nothing from rubygems.org).
require "rails"
require "active_record/railtie"
require "action_controller/railtie"
require "action_view/railtie"
require "shootout/env"

module Shootout
  class Application < Rails::Application
    config.load_defaults 6.1
    # API mode: the slim middleware stack of ActionController::API; fortunes' controller adds views.
    config.api_only = true
    config.eager_load = true
    config.cache_classes = true
    config.consider_all_requests_local = false
    config.secret_key_base = Shootout::Env.value("SECRET_KEY")
    # Rails' own static-file server (ActionDispatch::Static, RAILS_SERVE_STATIC_FILES) over STATIC_DIR.
    config.public_file_server.enabled = true
    config.paths["public"] = Shootout::Env.value("STATIC_DIR")
    # Warnings and errors only: Rails logs each request at :info.
    config.log_level = :warn
    config.logger = ActiveSupport::Logger.new($stdout)
    # The cached workload's in-process store (one per Puma worker, filled before the fork).
    config.cache_store = :memory_store
    # No session or cookie middleware: the session workload uses usersessions (see SessionsController).
    config.session_store :disabled
    # Rails compresses nothing itself; Rack's gzip middleware joins the stack by config.middleware.use (the
    # Rails on Rack guide, "Configuring Middleware Stack"): gzip at zlib's default level for any answer
    # whose request accepts it (no minimum size, no br), with Vary: Accept-Encoding.
    config.middleware.use Rack::Deflater
    config.active_record.schema_format = :sql
    config.active_record.dump_schema_after_migration = false
  end
end
