-- | Runs a WAI application on Warp, in the transport the harness asks for (docs/adding-a-framework.md).
module Shootout.Serve (serve) where

import Network.Wai (Application)
import Network.Wai.Handler.Warp (Settings, runSettings)
import Network.Wai.Handler.WarpTLS (runTLS, tlsSettings)
import System.Environment (lookupEnv)
import System.Exit (die)

-- | TLS_CERT and TLS_KEY both set: warp-tls's runTLS, TLS only, its ALPN choosing h2 (Warp's HTTP/2)
-- or http/1.1. Neither: runSettings in cleartext as before, where Warp also takes HTTP/2 with prior
-- knowledge. One alone stops the server rather than quietly serving cleartext.
serve :: Settings -> Application -> IO ()
serve settings app = do
  cert <- given "TLS_CERT"
  key <- given "TLS_KEY"
  case (cert, key) of
    (Just c, Just k) -> runTLS (tlsSettings c k) settings app
    (Nothing, Nothing) -> runSettings settings app
    _ -> die ("TLS_CERT=" <> shown cert <> " and TLS_KEY=" <> shown key <> ": set both or neither")
  where
    given name = (>>= \v -> if null v then Nothing else Just v) <$> lookupEnv name
    shown = maybe "(unset)" show
