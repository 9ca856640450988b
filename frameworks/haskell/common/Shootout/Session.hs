{-# LANGUAGE OverloadedStrings, PackageImports #-}
-- | The session counter in usersessions: one transaction that locks the visitor's row.
module Shootout.Session (sessionCookie, bumpSession) where

-- Named by package: crypto-api and crypto-random (which yesod brings in) expose a Crypto.Random too.
import "cryptonite" Crypto.Random (getRandomBytes)
import qualified Data.ByteArray.Encoding as BAE
import qualified Data.ByteString as B
import Data.Aeson (decodeStrict, encode, object, withObject, (.:), (.=))
import Data.Aeson.Types (parseMaybe)
import qualified Data.ByteString.Lazy as BL
import Data.Text (Text)
import qualified Data.Text.Encoding as TE
import Database.PostgreSQL.Simple

sessionCookie :: B.ByteString
sessionCookie = "uid"

-- | The visitor's new count, and the uid to set as cookie when the visitor was unknown.
bumpSession :: Connection -> Maybe B.ByteString -> IO (Int, Maybe B.ByteString)
bumpSession conn uid = withTransaction conn $ do
  rows <- case uid of
    Nothing -> pure []
    Just u -> query conn "SELECT data FROM usersessions WHERE uid = ? FOR UPDATE" (Only u)
  case rows of
    [Only dat] | Just u <- uid, Just n <- countOf dat -> do
      _ <- execute conn "UPDATE usersessions SET data = ? WHERE uid = ?" (encoded (n + 1), u)
      pure (n + 1, Nothing)
    _ -> do
      fresh <- BAE.convertToBase BAE.Base16 <$> (getRandomBytes 16 :: IO B.ByteString)
      _ <- execute conn "INSERT INTO usersessions (uid, data) VALUES (?, ?)" (fresh, encoded 1)
      pure (1, Just fresh)

countOf :: Text -> Maybe Int
countOf dat = decodeStrict (TE.encodeUtf8 dat) >>= parseMaybe (withObject "session" (.: "count"))

encoded :: Int -> Text
encoded n = TE.decodeUtf8 (BL.toStrict (encode (object ["count" .= n])))
