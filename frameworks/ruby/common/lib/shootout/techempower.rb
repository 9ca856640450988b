# frozen_string_literal: true

require "securerandom"

# What TechEmpower's database test types share, whatever the framework and database layer
# (docs/workloads.md): the count clamp, random ids, the fortune list, the world cache.
module Shootout
  module TechEmpower
    WORLD_ROWS = 10_000
    MAX_COUNT = 500

    Fortune = Struct.new(:id, :message)
    ADDITIONAL = Fortune.new(0, "Additional fortune added at request time.").freeze

    module_function

    # queries' and updates' ?queries=, cached's ?count=: missing, empty, not an integer or below 1
    # means 1, above 500 means 500.
    def count(raw)
      n = raw.is_a?(String) && raw.match?(/\A\s*-?[0-9]+\s*\z/) ? Integer(raw.strip, 10) : 1
      n.clamp(1, MAX_COUNT)
    end

    # Uniform in 1..10000; ids may repeat, as TechEmpower's may.
    def random_id = Random.rand(1..WORLD_ROWS)

    def world(id, number) = { "id" => id, "randomNumber" => number }

    # The table's rows plus the one added at request time, sorted by message: Ruby compares strings
    # bytewise, and UTF-8's byte order is code point order. Rows are anything with #message (an
    # ActiveRecord model, a Fortune).
    def fortunes_sorted(rows)
      rows = rows.to_a.dup
      rows << ADDITIONAL
      rows.sort_by!(&:message)
    end

    # Every world row in process memory, read once; what cached answers from instead of the table.
    # A frozen Hash: a read-only map of 10,000 small rows needs no eviction, and a Hash read is safe
    # across Puma's threads. Filled before Puma forks (preload_app!), so the workers share its pages.
    class WorldCache
      def initialize(rows)
        @rows = rows.to_h { |id, number| [id, TechEmpower.world(id, number).freeze] }.freeze
      end

      def pick(n)
        Array.new(n) { @rows.fetch(TechEmpower.random_id) }
      end
    end
  end
end
