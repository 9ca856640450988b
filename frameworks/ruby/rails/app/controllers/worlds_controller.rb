# frozen_string_literal: true

require "shootout/techempower"

# db, queries, updates and cached through ActiveRecord (TechEmpower's "full" ORM class).
class WorldsController < ActionController::API
  TE = Shootout::TechEmpower

  def db
    render json: World.find(TE.random_id)
  end

  # One SELECT per row (World.find), as the test wants: never one WHERE id IN (...). Outside Rails'
  # per-request query cache, which would answer a repeated id without asking the database.
  def queries
    render json: World.uncached { Array.new(TE.count(params[:queries])) { World.find(TE.random_id) } }
  end

  # Each row read by a query of its own, then one autocommitted UPDATE per row (update_column: no
  # transaction, callbacks or dirty check around it), in id order so that concurrent requests never
  # wait on each other's rows in a cycle.
  def updates
    worlds = World.uncached { Array.new(TE.count(params[:queries])) { World.find(TE.random_id) } }
    worlds.sort_by(&:id).each { |world| world.update_column(:randomnumber, TE.random_id) }
    render json: worlds
  end

  # Rails.cache (a MemoryStore per worker, filled at boot: config.ru); a miss reads the row again.
  def cached
    keys = Array.new(TE.count(params[:count])) { "world/#{TE.random_id}" }
    found = Rails.cache.fetch_multi(*keys.uniq) { |key| World.find(key.delete_prefix("world/")).as_json }
    render json: keys.map { |key| found[key] }
  end
end
