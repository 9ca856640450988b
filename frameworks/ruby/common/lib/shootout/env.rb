# frozen_string_literal: true

# The environment the harness gives every server (docs/adding-a-framework.md).
module Shootout
  module Env
    module_function

    def value(name)
      ENV.fetch(name) do
        raise "environment variable #{name} is not set; the harness sets it (docs/adding-a-framework.md)"
      end
    end

    def positive_int(name)
      raw = value(name)
      raise "environment variable #{name} is #{raw.inspect}: expected a positive integer" unless raw.match?(/\A[1-9][0-9]*\z/)

      Integer(raw, 10)
    end

    # Database connections each Puma worker may open (docs/fairness.md).
    def db_pool = positive_int("DB_POOL")

    def workers = positive_int("WORKERS")
  end
end
