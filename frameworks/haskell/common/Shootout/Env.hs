-- | What the harness passes in the environment (docs/adding-a-framework.md).
module Shootout.Env (Env (..), readEnv) where

import Data.Maybe (fromMaybe)
import System.Environment (lookupEnv)
import Text.Read (readMaybe)

data Env = Env
  { envHost :: String
  , envPort :: Int
  , envPoolSize :: Int      -- ^ connections of this one process: DB_POOL_TOTAL (fairness.md)
  , envDatabaseUrl :: String
  , envHashFile :: FilePath
  , envStaticDir :: FilePath
  }

readEnv :: IO Env
readEnv = do
  host <- fromMaybe "127.0.0.1" <$> lookupEnv "HOST"
  port <- number 8080 "PORT"
  -- One process serves every CPU, so it may open all the connections (DB_POOL_TOTAL), DB_POOL if alone.
  perProcess <- number 3 "DB_POOL"
  total <- number perProcess "DB_POOL_TOTAL"
  url <- fromMaybe "" <$> lookupEnv "DATABASE_URL"
  hashFile <- fromMaybe "" <$> lookupEnv "HASH_FILE"
  staticDir <- fromMaybe "static" <$> lookupEnv "STATIC_DIR"
  pure (Env host port (max 1 total) url hashFile staticDir)
  where
    number def name = do
      raw <- lookupEnv name
      pure (fromMaybe def (raw >>= readMaybe))
