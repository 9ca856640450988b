# frozen_string_literal: true

require_relative "config/environment"
require "shootout/headers"

# The cached workload's store, filled before Puma forks (preload_app!) so the workers share it.
Rails.cache.write_multi(World.pluck(:id, :randomnumber).to_h { |id, n| ["world/#{id}", { "id" => id, "randomNumber" => n }] })
# No database connection may cross the fork: each worker opens its own.
ActiveRecord::Base.connection_handler.clear_all_connections!

use Shootout::Headers, "Rails"
run Rails.application
