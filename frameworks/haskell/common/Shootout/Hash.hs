-- | The hash workload: SHA-256 of HASH_FILE (read per request), re-hashed n-1 times.
module Shootout.Hash (hashAnswer) where

import Crypto.Hash (Digest, SHA256 (..), hashWith)
import qualified Data.ByteArray as BA
import qualified Data.ByteString as B
import qualified Data.ByteString.Char8 as BC

-- | The digest's hex, or the one-line reason n is refused (the handler answers 400 with it).
hashAnswer :: FilePath -> Maybe B.ByteString -> IO (Either String String)
hashAnswer path raw = case parseN raw of
  Left why -> pure (Left why)
  Right n -> do
    content <- B.readFile path
    pure (Right (show (chain n (hashWith SHA256 content))))

parseN :: Maybe B.ByteString -> Either String Int
parseN Nothing = Left "missing query parameter n"
parseN (Just raw) = case BC.readInt raw of
  Just (n, rest) | B.null rest ->
    if n < 1 || n > 100000 then Left "n must be between 1 and 100000" else Right n
  _ -> Left "n must be an integer"

chain :: Int -> Digest SHA256 -> Digest SHA256
chain 1 d = d
chain k d = chain (k - 1) $! (hashWith SHA256 (BA.convert d :: B.ByteString))
