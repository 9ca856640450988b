-- | TechEmpower's count parameter (?queries=N, ?count=N): missing, empty, not a number or below 1
-- means 1; above 500 means 500. json-comp's ?n=N the same way within its 1..1000.
module Shootout.Count (clampCount, clampItems) where

import qualified Data.ByteString.Char8 as B

clampCount :: Maybe B.ByteString -> Int
clampCount = clampTo 500

clampItems :: Maybe B.ByteString -> Int
clampItems = clampTo 1000

clampTo :: Int -> Maybe B.ByteString -> Int
clampTo top raw = case raw >>= B.readInt of
  Just (n, rest) | B.null rest -> max 1 (min top n)
  _ -> 1
