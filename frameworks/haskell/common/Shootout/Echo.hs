-- | The websocket workload: every message goes back unchanged until the peer closes.
module Shootout.Echo (echo) where

import Control.Exception (handle)
import Control.Monad (forever)
import qualified Network.WebSockets as WS

echo :: WS.ServerApp
echo pending = do
  conn <- WS.acceptRequest pending
  handle ignoreClose (forever (WS.receiveDataMessage conn >>= WS.sendDataMessage conn))
  where
    ignoreClose :: WS.ConnectionException -> IO ()
    ignoreClose _ = pure ()
