# frozen_string_literal: true

require "shootout/json_comp"

class BenchController < ActionController::API
  def plaintext
    render plain: "Hello, World!"
  end

  def json
    render json: { message: "Hello, World!" }
  end

  # Compressed by Rack::Deflater (config/application.rb) when the request accepts gzip.
  def json_comp
    render json: Shootout::JsonComp.items(params[:n])
  end
end
