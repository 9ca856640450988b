# frozen_string_literal: true

class BenchController < ActionController::API
  def plaintext
    render plain: "Hello, World!"
  end

  def json
    render json: { message: "Hello, World!" }
  end
end
