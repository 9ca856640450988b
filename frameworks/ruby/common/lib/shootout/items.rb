# frozen_string_literal: true

module Shootout
  # crud's rules that are the contract's rather than a framework's (docs/workloads.md, "crud"): the page
  # window of ?page=&size=, the table's integer range, and an item body's JSON types for a framework with no
  # validation of its own.
  module Items
    INT32 = (-2**31...2**31).freeze
    PAGE = 1
    SIZE = 10
    SIZES = (1..100).freeze
    # No table keyed by int4 holds more rows than this many pages of one, so a later page is past the end
    # either way; held here, the OFFSET stays inside PostgreSQL's bigint.
    LAST_PAGE = 2**32

    module_function

    # [limit, offset] of the page, or nil when page or size is not an integer, page < 1 or size outside
    # 1..100. A parameter left out takes its default; one given empty is not an integer.
    def window(page, size)
      page = page.nil? ? PAGE : integer(page)
      size = size.nil? ? SIZE : integer(size)
      return nil unless page && size && page >= 1 && SIZES.cover?(size)

      [size, (page.clamp(1, LAST_PAGE) - 1) * size]
    end

    # An id of the table from a path segment, or nil when no row can have it (not digits, or past int4).
    def id(raw)
      value = integer(raw)
      value if value && INT32.cover?(value)
    end

    # What is wrong with a decoded body as an item, by member ({} when nothing is): it must be a JSON object
    # whose name is a string and whose quantity an integer in 32 bits (JSON.parse gives a Float for a number
    # with a fraction). Members besides these are ignored.
    def errors(body)
      return { "body" => "must be a JSON object" } unless body.is_a?(Hash)

      errors = {}
      errors["name"] = "must be a string" unless body["name"].is_a?(String)
      quantity = body["quantity"]
      errors["quantity"] = "must be an integer in 32 bits" unless quantity.is_a?(Integer) && INT32.cover?(quantity)
      errors
    end

    def integer(raw)
      Integer(raw, 10) if raw.is_a?(String) && raw.match?(/\A[+-]?[0-9]+\z/)
    end
  end
end
