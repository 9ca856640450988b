# frozen_string_literal: true

$LOAD_PATH.unshift File.expand_path("../common/lib", __dir__)
require "shootout/headers"
require_relative "app"

use Shootout::Headers, "Sinatra"
# Sinatra has no compression of its own; its README ("Rack Middleware") mounts Rack's middleware with `use`,
# and Rack's is Rack::Deflater: gzip at zlib's default level for any answer whose request accepts it (no
# minimum size, no br), with Vary: Accept-Encoding.
use Rack::Deflater
run App
