# frozen_string_literal: true

$LOAD_PATH.unshift File.expand_path("../common/lib", __dir__)
require "shootout/headers"
require_relative "app"

use Shootout::Headers, "Sinatra"
run App
