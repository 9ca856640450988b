-- | TechEmpower's count parameter (?queries=N, ?count=N): missing, empty, not a number or below 1
-- means 1; above 500 means 500.
module Shootout.Count (clampCount) where

import qualified Data.ByteString.Char8 as B

clampCount :: Maybe B.ByteString -> Int
clampCount raw = case raw >>= B.readInt of
  Just (n, rest) | B.null rest -> max 1 (min 500 n)
  _ -> 1
