# frozen_string_literal: true

module Shootout
  # json-comp's array, built on every request for the framework's own JSON path to serialize.
  module JsonComp
    MAX_ITEMS = 1000

    module_function

    # ?n=: missing or not an integer means 1, and n is held to 1..1000 (the contract asks for no other).
    def items(raw)
      n = raw.is_a?(String) && raw.match?(/\A[0-9]+\z/) ? Integer(raw, 10) : 1
      Array.new(n.clamp(1, MAX_ITEMS)) { |i| { "id" => i + 1, "message" => "Hello, World!" } }
    end
  end
end
