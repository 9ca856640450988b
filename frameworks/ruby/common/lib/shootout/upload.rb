# frozen_string_literal: true

require "digest"

module Shootout
  # upload and upload-chunked: the request body read to its end through rack.input, counted and hashed
  # as it is read, so a 1 MiB body is never held as one string.
  module Upload
    # Puma 5.6 (Debian's 5.6.5) has no request-body limit: it reads any body whole before the app runs
    # (into a Tempfile past 112 KiB, lib/puma/client.rb), and neither Rack 2.2, Sinatra nor Rails sets one
    # (Rails leaves it to the web server in front). So the limit is the app's, applied while it reads:
    # a body over 2 MiB (by its Content-Length, or by what it turns out to hold) is answered 413.
    LIMIT = 2 * 1024 * 1024
    PIECE = 64 * 1024

    class TooLarge < StandardError; end

    module_function

    # "<bytes read> <lowercase hex SHA-256>" of everything `input` yields; TooLarge past LIMIT.
    def answer(input, content_length = nil)
      raise TooLarge if content_length.to_i > LIMIT

      digest = Digest::SHA256.new
      size = 0
      piece = String.new(capacity: PIECE, encoding: Encoding::BINARY)
      while input.read(PIECE, piece)
        size += piece.bytesize
        raise TooLarge if size > LIMIT

        digest.update(piece)
      end
      "#{size} #{digest.hexdigest}"
    end
  end
end
