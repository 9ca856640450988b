# frozen_string_literal: true

$LOAD_PATH.unshift File.expand_path("../common/lib", __dir__)
require "shootout/headers"
require_relative "app"

use Shootout::Headers, "Rack"
# Rack's own compression middleware: gzip at zlib's default level for any answer whose request accepts it
# (no minimum size, no br), with Vary: Accept-Encoding.
use Rack::Deflater
# Rack's own static-file handler serves STATIC_DIR at /static.
map("/static") { run Rack::Files.new(ENV.fetch("STATIC_DIR")) }
map("/") { run RackApp }
