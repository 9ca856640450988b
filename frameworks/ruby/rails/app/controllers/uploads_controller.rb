# frozen_string_literal: true

require "shootout/upload"

# upload and upload-chunked: request.body is Puma's rack.input, the whole body already read off the socket
# (chunked bodies decoded); Rails and Puma 5.6 set no body limit, so the 2 MiB one is applied while reading
# it (Shootout::Upload says why there). An application/octet-stream body is no parameters to Rails.
class UploadsController < ActionController::API
  def create
    render plain: Shootout::Upload.answer(request.body, request.content_length)
  rescue Shootout::Upload::TooLarge
    render plain: "request body over #{Shootout::Upload::LIMIT} bytes", status: :payload_too_large
  end
end
