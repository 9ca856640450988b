# frozen_string_literal: true

require "digest"

# The hash workload: SHA-256 of HASH_FILE, read on every request, then iterated n - 1 times.
module Shootout
  module Hashing
    MAX_N = 100_000

    module_function

    # The query's n; an ArgumentError's message is the one-line reason the 400 answer carries.
    def parse_n(raw)
      raise ArgumentError, "missing query parameter n" if raw.nil?
      raise ArgumentError, "n must be an integer" unless raw.match?(/\A-?[0-9]+\z/)

      n = Integer(raw, 10)
      raise ArgumentError, "n must be between 1 and #{MAX_N}" unless n.between?(1, MAX_N)

      n
    end

    def iterated_sha256(path, n)
      digest = Digest::SHA256.digest(File.binread(path))
      (n - 1).times { digest = Digest::SHA256.digest(digest) }
      digest.unpack1("H*")
    end
  end
end
