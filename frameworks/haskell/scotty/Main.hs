{-# LANGUAGE OverloadedStrings #-}
-- | The contract's workloads as Scotty routes, run by Warp (which sets Server and Date); the
-- WebSocket echo sits in front of Scotty's WAI application, as Scotty has no WebSocket routes.
module Main (main) where

import Control.Monad.IO.Class (liftIO)
import Data.Aeson (object, (.=))
import Data.List (stripPrefix)
import qualified Data.ByteString.Builder as BB
import qualified Data.ByteString.Char8 as BC
import qualified Data.ByteString.Lazy as BL
import Data.Pool (Pool)
import Data.String (fromString)
import qualified Data.Text.Lazy as TL
import qualified Data.Text.Lazy.Encoding as TLE
import Database.PostgreSQL.Simple (Connection)
import Network.HTTP.Types (status400)
import Network.Wai.Handler.Warp (defaultSettings, setHost, setPort)
import Network.Wai.Handler.WebSockets (websocketsOr)
import Network.Wai.Middleware.Static (addBase, policy, staticPolicy, (>->))
import qualified Network.WebSockets as WS
import Web.Cookie (defaultSetCookie, parseCookies, renderSetCookie, setCookieHttpOnly, setCookieName,
                   setCookiePath, setCookieValue)
import Web.Scotty

import Shootout.Cache
import Shootout.Count
import Shootout.Echo
import Shootout.Env
import Shootout.Fortune
import Shootout.Hash
import Shootout.Serve
import Shootout.Session
import Shootout.World

main :: IO ()
main = do
  env <- readEnv
  pool <- newDbPool (envDatabaseUrl env) (envPoolSize env)
  cache <- newWorldCache pool
  app <- scottyApp (routes env pool cache)
  let settings = setHost (fromString (envHost env)) (setPort (envPort env) defaultSettings)
  serve settings (websocketsOr WS.defaultConnectionOptions echo app)

routes :: Env -> Pool Connection -> WorldCache -> ScottyM ()
routes env pool cache = do
  -- wai-middleware-static, Scotty's documented way to serve files: /static/x is STATIC_DIR/x.
  middleware (staticPolicy (policy (stripPrefix "static/") >-> addBase (envStaticDir env)))
  get "/plaintext" (text "Hello, World!")
  get "/json" (json (object ["message" .= ("Hello, World!" :: String)]))
  get "/db" (liftIO (randomId >>= \i -> withDb pool (`oneWorld` i)) >>= json)
  get "/queries" (count "queries" >>= \n -> liftIO (withDb pool (`someWorlds` n)) >>= json)
  get "/updates" (count "queries" >>= \n -> liftIO (withDb pool (`updateWorlds` n)) >>= json)
  get "/cached-queries" (count "count" >>= liftIO . cachedWorlds cache >>= json)
  get "/fortunes" $ do
    page <- liftIO (withDb pool fortunesPage)
    setHeader "Content-Type" "text/html; charset=utf-8"
    raw page
  get "/session" $ do
    cookies <- header "Cookie"
    let known = cookies >>= lookup sessionCookie . parseCookies . BL.toStrict . TLE.encodeUtf8
    (n, fresh) <- liftIO (withDb pool (`bumpSession` known))
    mapM_ (setHeader "Set-Cookie" . cookie) fresh
    text ("Count is " <> TL.pack (show n))
  get "/hash" $ do
    n <- lookupParam "n"
    answer <- liftIO (hashAnswer (envHashFile env) n)
    either (\why -> status status400 >> text (TL.pack why)) (text . TL.pack) answer
  where
    count name = clampCount <$> lookupParam name
    cookie uid = TLE.decodeUtf8 (BB.toLazyByteString (renderSetCookie defaultSetCookie
      {setCookieName = sessionCookie, setCookieValue = uid, setCookiePath = Just "/", setCookieHttpOnly = True}))

lookupParam :: TL.Text -> ActionM (Maybe BC.ByteString)
lookupParam name = fmap (BL.toStrict . TLE.encodeUtf8) . lookup name <$> params
