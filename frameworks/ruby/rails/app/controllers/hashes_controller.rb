# frozen_string_literal: true

require "shootout/hashing"

class HashesController < ActionController::API
  HASH_FILE = Shootout::Env.value("HASH_FILE")

  def show
    render plain: Shootout::Hashing.iterated_sha256(HASH_FILE, Shootout::Hashing.parse_n(params[:n]))
  rescue ArgumentError => e
    render plain: e.message, status: :bad_request
  end
end
