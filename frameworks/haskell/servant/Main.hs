{-# LANGUAGE DataKinds #-}
{-# LANGUAGE FlexibleInstances #-}
{-# LANGUAGE MultiParamTypeClasses #-}
{-# LANGUAGE OverloadedStrings #-}
{-# LANGUAGE TypeOperators #-}
-- | The contract's workloads as one Servant API type, served by servant-server on Warp (which sets
-- Server and Date). Static files and the WebSocket echo are Servant's Raw endpoints, the form Servant's
-- documentation gives for handing a path to a plain WAI application.
module Main (main) where

import Control.Concurrent (threadDelay)
import Control.Monad.IO.Class (liftIO)
import Data.Aeson (ToJSON (..), object, pairs, (.=))
import qualified Data.ByteString.Char8 as BC
import qualified Data.ByteString.Lazy as BL
import qualified Data.List.NonEmpty as NE
import Data.Pool (Pool)
import Data.String (fromString)
import Data.Text (Text)
import qualified Data.Text as T
import qualified Data.Text.Encoding as TE
import Database.PostgreSQL.Simple (Connection)
import Network.HTTP.Media ((//), (/:))
import Network.HTTP.Types (hContentType, status400)
import Network.Wai (responseLBS)
import Network.Wai.Handler.Warp (defaultSettings, setHost, setPort)
import Network.Wai.Handler.WebSockets (websocketsOr)
import qualified Network.WebSockets as WS
import Servant
import Web.Cookie (SetCookie, defaultSetCookie, parseCookies, setCookieHttpOnly, setCookieName,
                   setCookiePath, setCookieValue)

import Shootout.Cache
import Shootout.Count
import Shootout.Echo
import Shootout.Env
import Shootout.Fortune
import Shootout.Hash
import qualified Shootout.Serve as Run
import Shootout.Session
import Shootout.World

type API =
       "plaintext" :> Get '[PlainText] Text
  :<|> "async" :> Get '[PlainText] Text
  :<|> "json" :> Get '[JSON] Message
  :<|> "db" :> Get '[JSON] World
  :<|> "queries" :> QueryParam "queries" Text :> Get '[JSON] [World]
  :<|> "updates" :> QueryParam "queries" Text :> Get '[JSON] [World]
  :<|> "cached-queries" :> QueryParam "count" Text :> Get '[JSON] [World]
  :<|> "fortunes" :> Get '[HTML] BL.ByteString
  :<|> "session" :> Header "Cookie" Text :> Get '[PlainText] (Headers '[Header "Set-Cookie" SetCookie] Text)
  :<|> "hash" :> QueryParam "n" Text :> Get '[PlainText] Text
  :<|> "static" :> Raw
  :<|> "ws" :> Raw

-- | Serialised by aeson on every request, through Servant's JSON content type.
newtype Message = Message Text

instance ToJSON Message where
  toJSON (Message m) = object ["message" .= m]
  toEncoding (Message m) = pairs ("message" .= m)

-- | servant-server has no HTML type of its own; its documentation declares one for blaze-html or lucid
-- pages. The page is blaze-html's rendering (../common/Shootout/Fortune.hs), already UTF-8 bytes.
data HTML

instance Accept HTML where
  contentTypes _ = NE.fromList ["text" // "html" /: ("charset", "utf-8")]

instance MimeRender HTML BL.ByteString where
  mimeRender _ = id

main :: IO ()
main = do
  env <- readEnv
  pool <- newDbPool (envDatabaseUrl env) (envPoolSize env)
  cache <- newWorldCache pool
  let settings = setHost (fromString (envHost env)) (setPort (envPort env) defaultSettings)
  Run.serve settings (serve (Proxy :: Proxy API) (server env pool cache))

server :: Env -> Pool Connection -> WorldCache -> Server API
server env pool cache =
       pure "Hello, World!"
  -- threadDelay parks only this request's green thread; the RTS's timer manager wakes it.
  :<|> liftIO (threadDelay 15000 >> pure "Hello, World!")
  :<|> pure (Message "Hello, World!")
  :<|> liftIO (randomId >>= \i -> withDb pool (`oneWorld` i))
  :<|> (\q -> liftIO (withDb pool (`someWorlds` count q)))
  :<|> (\q -> liftIO (withDb pool (`updateWorlds` count q)))
  :<|> (\c -> liftIO (cachedWorlds cache (count c)))
  :<|> liftIO (withDb pool fortunesPage)
  :<|> session
  :<|> hash
  :<|> serveDirectoryWebApp (envStaticDir env)
  :<|> Tagged (websocketsOr WS.defaultConnectionOptions echo notUpgrade)
  where
    count = clampCount . fmap TE.encodeUtf8
    session :: Maybe Text -> Handler (Headers '[Header "Set-Cookie" SetCookie] Text)
    session cookies = do
      let known = cookies >>= lookup sessionCookie . parseCookies . TE.encodeUtf8
      (n, fresh) <- liftIO (withDb pool (`bumpSession` known))
      let body = "Count is " <> T.pack (show n)
      pure (maybe (noHeader body) (\uid -> addHeader (cookie uid) body) fresh)
    cookie uid = defaultSetCookie
      {setCookieName = sessionCookie, setCookieValue = uid, setCookiePath = Just "/", setCookieHttpOnly = True}
    -- A refused n is Servant's own error answer, 400 with the one-line reason as text.
    hash :: Maybe Text -> Handler Text
    hash n = liftIO (hashAnswer (envHashFile env) (TE.encodeUtf8 <$> n)) >>= either
      (\why -> throwError err400 {errBody = BL.fromStrict (BC.pack why), errHeaders = [plainType]})
      (pure . T.pack)
    notUpgrade _ respond = respond (responseLBS status400 [plainType] "expected a WebSocket upgrade")
    plainType = (hContentType, "text/plain; charset=utf-8")
