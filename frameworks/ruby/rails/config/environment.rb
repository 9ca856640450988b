# frozen_string_literal: true

$LOAD_PATH.unshift File.expand_path("../../common/lib", __dir__)
require_relative "application"

Rails.application.initialize!
