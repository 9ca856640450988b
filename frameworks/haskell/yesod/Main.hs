{-# LANGUAGE DataKinds #-}
{-# LANGUAGE DerivingStrategies #-}
{-# LANGUAGE FlexibleContexts #-}
{-# LANGUAGE FlexibleInstances #-}
{-# LANGUAGE GADTs #-}
{-# LANGUAGE GeneralizedNewtypeDeriving #-}
{-# LANGUAGE MultiParamTypeClasses #-}
{-# LANGUAGE OverloadedStrings #-}
{-# LANGUAGE PackageImports #-}
{-# LANGUAGE QuasiQuotes #-}
{-# LANGUAGE StandaloneDeriving #-}
{-# LANGUAGE TemplateHaskell #-}
{-# LANGUAGE TypeFamilies #-}
{-# LANGUAGE UndecidableInstances #-}
{-# LANGUAGE ViewPatterns #-}
-- | The contract's workloads as a Yesod site: routes by parseRoutes, the database through Persistent
-- (runDB), fortunes by a Hamlet template, static files by yesod-static, run as the Yesod scaffold
-- runs it (toWaiAppPlain, defaultMiddlewaresNoLogging, Warp) without its request logger.
module Main (main) where

import Control.Concurrent (threadDelay)
import Control.Monad (forM, forM_, replicateM)
import Control.Monad.Logger (runNoLoggingT)
-- crypto-api and crypto-random, pulled in by Yesod, also expose a Crypto.Random.
import "cryptonite" Crypto.Random (getRandomBytes)
import Data.Aeson (Encoding, decodeStrict, encode, pairs, withObject)
import Data.Aeson.Types (parseMaybe)
import qualified Data.ByteArray.Encoding as BAE
import qualified Data.ByteString as B
import qualified Data.ByteString.Char8 as BC
import qualified Data.ByteString.Lazy as BL
import qualified Data.IntMap.Strict as IM
import Data.List (sortOn)
import Data.String (fromString)
import Data.Text (Text)
import qualified Data.Text as T
import qualified Data.Text.Encoding as TE
import Database.Persist.Postgresql (ConnectionPool, Single (..), SqlBackend, createPostgresqlPool, fromSqlKey, rawSql,
                                    runSqlPool, toSqlKey)
import Network.HTTP.Types (status400)
import Network.Wai (responseLBS)
import Network.Wai.Handler.Warp (defaultSettings, setHost, setPort)
import Network.Wai.Handler.WebSockets (websocketsOr)
import qualified Network.WebSockets as WS
import System.Random (randomRIO)
import Web.Cookie (defaultSetCookie, sameSiteLax, setCookieHttpOnly, setCookieName, setCookiePath, setCookieSameSite,
                   setCookieValue)
import Yesod
import Yesod.Static (Static, static)

import Shootout.Count
import Shootout.Echo
import Shootout.Env
import Shootout.Hash
import qualified Shootout.Serve as Run

-- The harness's tables (it creates and seeds them; Persistent only maps them, no migration).
share [mkPersist sqlSettings] [persistLowerCase|
World sql=world
    randomnumber Int
Fortune sql=fortune
    message Text
Usersession sql=usersessions
    uid Text
    data Text
    Primary uid
|]

-- | A world row as the contract's JSON object.
data Row = Row !Int !Int

rowId :: Row -> Int
rowId (Row i _) = i

instance ToJSON Row where
  toJSON (Row i r) = object ["id" .= i, "randomNumber" .= r]
  toEncoding (Row i r) = pairs ("id" .= i <> "randomNumber" .= r)

data App = App
  { appPool :: ConnectionPool
  , appStatic :: Static
  , appWorlds :: IM.IntMap Row  -- ^ cached's copy of world, read once before the server starts
  , appHashFile :: FilePath
  }

mkYesod "App" [parseRoutes|
/plaintext PlaintextR GET
/async AsyncR GET
/json JsonR GET
/db DbR GET
/queries QueriesR GET
/updates UpdatesR GET
/cached-queries CachedR GET
/fortunes FortunesR GET
/session SessionR GET
/hash HashR GET
/ws WsR GET
/static StaticR Static appStatic
|]

instance Yesod App where
  -- Yesod's client-session backend would decrypt and re-encrypt a _SESSION cookie on every answer of
  -- every route; the session workload keeps its visitor id in a cookie of its own (getSessionR), so
  -- the backend is off, as Yesod's book shows for sites without sessions.
  makeSessionBackend _ = pure Nothing

instance YesodPersist App where
  type YesodPersistBackend App = SqlBackend
  runDB action = getYesod >>= runSqlPool action . appPool

main :: IO ()
main = do
  env <- readEnv
  -- One process serves every CPU: its pool holds DB_POOL_TOTAL connections (../common/Shootout/Env.hs).
  pool <- runNoLoggingT (createPostgresqlPool (BC.pack (envDatabaseUrl env)) (envPoolSize env))
  worlds <- runSqlPool (selectList [] []) pool
  files <- static (envStaticDir env)
  let rows = IM.fromList [(rowId r, r) | r <- map row worlds]
      site = App pool files rows (envHashFile env)
      settings = setHost (fromString (envHost env)) (setPort (envPort env) defaultSettings)
  app <- toWaiAppPlain site
  Run.serve settings (defaultMiddlewaresNoLogging app)

row :: Entity World -> Row
row (Entity key w) = Row (fromIntegral (fromSqlKey key)) (worldRandomnumber w)

randomId :: MonadIO m => m Int
randomId = liftIO (randomRIO (1, 10000))

countParam :: Text -> Handler Int
countParam name = clampCount . fmap TE.encodeUtf8 <$> lookupGetParam name

-- | One row by its key: Persistent's get, a SELECT of its own.
worldById :: Int -> YesodDB App Row
worldById i = get (toSqlKey (fromIntegral i) :: Key World)
  >>= maybe (liftIO (fail ("no world row " <> show i))) (pure . Row i . worldRandomnumber)

getPlaintextR :: Handler Text
getPlaintextR = pure "Hello, World!"

-- | threadDelay parks only this request's green thread; the RTS's timer manager wakes it.
getAsyncR :: Handler Text
getAsyncR = liftIO (threadDelay 15000) >> pure "Hello, World!"

getJsonR :: Handler Encoding
getJsonR = returnJsonEncoding (object ["message" .= ("Hello, World!" :: Text)])

getDbR :: Handler Encoding
getDbR = randomId >>= runDB . worldById >>= returnJsonEncoding

getQueriesR :: Handler Encoding
getQueriesR = do
  n <- countParam "queries"
  runDB (replicateM n (randomId >>= worldById)) >>= returnJsonEncoding

-- | runDB is one transaction: each row read by a query of its own, then one UPDATE per row, in id
-- order so that concurrent requests take their row locks in the same order and never deadlock.
getUpdatesR :: Handler Encoding
getUpdatesR = do
  n <- countParam "queries"
  fresh <- runDB $ do
    worlds <- replicateM n (randomId >>= worldById)
    renumbered <- forM worlds (\w -> Row (rowId w) <$> randomId)
    forM_ (sortOn rowId renumbered) $ \(Row i r) ->
      update (toSqlKey (fromIntegral i) :: Key World) [WorldRandomnumber =. r]
    pure renumbered
  returnJsonEncoding fresh

getCachedR :: Handler Encoding
getCachedR = do
  n <- countParam "count"
  worlds <- appWorlds <$> getYesod
  picked <- replicateM n $ do
    i <- randomId
    maybe (liftIO (fail ("no world row " <> show i))) pure (IM.lookup i worlds)
  returnJsonEncoding picked

getFortunesR :: Handler Html
getFortunesR = do
  rows <- runDB (selectList [] [])
  let fortunes = sortOn snd ((0, "Additional fortune added at request time.")
        : [(fromIntegral (fromSqlKey key), fortuneMessage f) | Entity key f <- rows]) :: [(Int, Text)]
  withUrlRenderer [hamlet|
$doctype 5
<html>
  <head>
    <title>Fortunes
  <body>
    <table>
      <tr>
        <th>id
        <th>message
      $forall (fid, message) <- fortunes
        <tr>
          <td>#{fid}
          <td>#{message}
|]

-- | The visitor's counter in usersessions, in runDB's transaction: the row locked by SELECT ... FOR
-- UPDATE (Persistent's rawSql, as Persistent has no locking read), then Persistent's update or insert.
getSessionR :: Handler Text
getSessionR = do
  known <- lookupCookie "uid"
  (n, fresh) <- runDB $ do
    rows <- case known of
      Nothing -> pure []
      Just uid -> rawSql "SELECT data FROM usersessions WHERE uid = ? FOR UPDATE" [toPersistValue uid]
    case (known, rows) of
      (Just uid, [Single dat]) | Just c <- countOf dat -> do
        update (UsersessionKey uid) [UsersessionData =. counted (c + 1)]
        pure (c + 1, Nothing)
      _ -> do
        uid <- liftIO newUid
        insert_ (Usersession uid (counted 1))
        pure (1, Just uid)
  forM_ fresh $ \uid -> setCookie defaultSetCookie
    { setCookieName = "uid", setCookieValue = TE.encodeUtf8 uid, setCookiePath = Just "/"
    , setCookieHttpOnly = True, setCookieSameSite = Just sameSiteLax }
  pure ("Count is " <> T.pack (show (n :: Int)))
  where
    countOf dat = decodeStrict (TE.encodeUtf8 dat) >>= parseMaybe (withObject "session" (.: "count"))
    counted c = TE.decodeUtf8 (BL.toStrict (encode (object ["count" .= (c :: Int)])))
    newUid = TE.decodeUtf8 . BAE.convertToBase BAE.Base16 <$> (getRandomBytes 16 :: IO B.ByteString)

-- | A refused n is sent as Yesod's sendResponseStatus 400 with the one-line reason as text.
getHashR :: Handler Text
getHashR = do
  n <- lookupGetParam "n"
  file <- appHashFile <$> getYesod
  liftIO (hashAnswer file (TE.encodeUtf8 <$> n))
    >>= either (sendResponseStatus status400 . T.pack) (pure . T.pack)

-- | yesod-websockets is not in Debian: the route hands the request to wai-websockets' echo through
-- Yesod's sendWaiApplication, which is what that package builds on.
getWsR :: Handler ()
getWsR = sendWaiApplication (websocketsOr WS.defaultConnectionOptions echo notUpgrade)
  where
    notUpgrade _ send = send (responseLBS status400 [("Content-Type", "text/plain; charset=utf-8")]
      "expected a WebSocket upgrade")
