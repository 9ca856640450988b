{-# LANGUAGE OverloadedStrings #-}
-- | The contract's workloads as one WAI application on Warp (Warp sets Server and Date), behind
-- wai-extra's gzip middleware at its defaults (json-comp) and its request size limit (upload).
module Main (main) where

import Control.Concurrent (threadDelay)
import Control.Monad (join)
import Data.Aeson (ToJSON, encode, object, (.=))
import qualified Data.ByteString.Char8 as BC
import qualified Data.ByteString.Lazy as BL
import Data.String (fromString)
import Network.HTTP.Types
import Network.Wai
import Network.Wai.Application.Static (defaultFileServerSettings, staticApp)
import Network.Wai.Handler.Warp
import Network.Wai.Handler.WebSockets (websocketsOr)
import Network.Wai.Middleware.Gzip (def, gzip)
import Network.Wai.Middleware.RequestSizeLimit (defaultRequestSizeLimitSettings, requestSizeLimitMiddleware,
                                                setMaxLengthForRequest)
import qualified Network.WebSockets as WS
import Web.Cookie (parseCookies, defaultSetCookie, renderSetCookie, setCookieName, setCookieValue,
                   setCookiePath, setCookieHttpOnly)
import qualified Data.ByteString.Builder as BB

import Data.Pool (Pool)
import Database.PostgreSQL.Simple (Connection)

import Shootout.Cache
import Shootout.Count
import Shootout.Echo
import Shootout.Env
import Shootout.Fortune
import Shootout.Hash
import Shootout.Serve
import Shootout.Session
import Shootout.Upload
import Shootout.World

main :: IO ()
main = do
  env <- readEnv
  pool <- newDbPool (envDatabaseUrl env) (envPoolSize env)
  cache <- newWorldCache pool
  let settings = setHost (fromString (envHost env)) (setPort (envPort env) defaultSettings)
  serve settings (websocketsOr WS.defaultConnectionOptions echo (gzip def (limitBodies (app env pool cache))))

-- | wai-extra's request size limit: bodies over 2 MiB are answered 413, by Content-Length or once a chunked
-- body's reads pass it (Network.Wai.Middleware.RequestSizeLimit; 2 MiB is also its default).
limitBodies :: Middleware
limitBodies = requestSizeLimitMiddleware
  (setMaxLengthForRequest (\_ -> pure (Just (2 * 1024 * 1024))) defaultRequestSizeLimitSettings)

app :: Env -> Pool Connection -> WorldCache -> Application
app env pool cache req respond = case (requestMethod req, pathInfo req) of
  ("GET", ["plaintext"]) -> respond (text status200 "Hello, World!")
  ("GET", ["json"]) -> respond (json (object ["message" .= ("Hello, World!" :: String)]))
  -- threadDelay parks only this request's green thread on the threaded RTS's timer manager; the capability
  -- goes on serving other connections meanwhile.
  ("GET", ["async"]) -> threadDelay 15000 >> respond (text status200 "Hello, World!")
  ("GET", ["json-comp"]) -> respond (json [object ["id" .= i, "message" .= ("Hello, World!" :: String)]
                                          | i <- [1 .. clampItems (param "n")]])
  ("POST", ["upload"]) -> uploadAnswer (getRequestBodyChunk req) >>= respond . text status200 . BL.fromStrict
  ("GET", ["db"]) -> randomId >>= \i -> withDb pool (`oneWorld` i) >>= respond . json
  ("GET", ["queries"]) -> withDb pool (`someWorlds` count "queries") >>= respond . json
  ("GET", ["updates"]) -> withDb pool (`updateWorlds` count "queries") >>= respond . json
  ("GET", ["cached-queries"]) -> cachedWorlds cache (count "count") >>= respond . json
  ("GET", ["fortunes"]) -> withDb pool fortunesPage >>= respond . responseLBS status200 [html]
  ("GET", ["session"]) -> session pool req >>= respond
  ("GET", ["hash"]) -> hashAnswer (envHashFile env) (param "n") >>= respond . either
    (text status400 . BL.fromStrict . BC.pack) (text status200 . BL.fromStrict . BC.pack)
  (_, "static" : rest) -> staticApp (defaultFileServerSettings (envStaticDir env)) req {pathInfo = rest} respond
  _ -> respond (text status404 "not found")
  where
    param name = join (lookup name (queryString req))
    count = clampCount . param

session :: Pool Connection -> Request -> IO Response
session pool req = do
  let known = lookup hCookie (requestHeaders req) >>= lookup sessionCookie . parseCookies
  (n, fresh) <- withDb pool (`bumpSession` known)
  let setCookie uid = ("Set-Cookie", BL.toStrict (BB.toLazyByteString (renderSetCookie defaultSetCookie
        {setCookieName = sessionCookie, setCookieValue = uid, setCookiePath = Just "/", setCookieHttpOnly = True})))
  pure (responseLBS status200 (plainType : maybe [] (pure . setCookie) fresh)
    (BL.fromStrict (BC.pack ("Count is " <> show n))))


text :: Status -> BL.ByteString -> Response
text status = responseLBS status [plainType]

json :: ToJSON a => a -> Response
json = responseLBS status200 [(hContentType, "application/json")] . encode

plainType, html :: Header
plainType = (hContentType, "text/plain; charset=utf-8")
html = (hContentType, "text/html; charset=utf-8")
