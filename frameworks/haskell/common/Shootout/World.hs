{-# LANGUAGE OverloadedStrings #-}
-- | The world table through postgresql-simple's own API (fairness orm = "raw").
module Shootout.World
  ( World (..), Pool, newDbPool, withDb, randomId
  , oneWorld, someWorlds, updateWorlds
  ) where

import Control.Monad (forM, forM_)
import Data.Aeson (ToJSON (..), object, pairs, (.=))
import Data.Pool (Pool, createPool, withResource)
import qualified Data.ByteString.Char8 as BC
import Database.PostgreSQL.Simple
import Database.PostgreSQL.Simple.FromRow (FromRow (..), field)
import System.Random (randomRIO)

data World = World {worldId :: !Int, worldRandom :: !Int}

instance FromRow World where
  fromRow = World <$> field <*> field

instance ToJSON World where
  toJSON (World i r) = object ["id" .= i, "randomNumber" .= r]
  toEncoding (World i r) = pairs ("id" .= i <> "randomNumber" .= r)

-- | One stripe, so the pool's maximum is the process's whole share (resource-pool has no minimum).
newDbPool :: String -> Int -> IO (Pool Connection)
newDbPool url size = createPool (connectPostgreSQL (BC.pack url)) close 1 60 size

withDb :: Pool Connection -> (Connection -> IO a) -> IO a
withDb = withResource

randomId :: IO Int
randomId = randomRIO (1, 10000)

oneWorld :: Connection -> Int -> IO World
oneWorld conn i = do
  rows <- query conn "SELECT id, randomnumber FROM world WHERE id = ?" (Only i)
  case rows of
    [w] -> pure w
    _ -> fail ("no world row " <> show i)

-- | n rows, each read by a query of its own (TechEmpower's queries: never one WHERE id IN).
someWorlds :: Connection -> Int -> IO [World]
someWorlds conn n = forM [1 .. n] (\_ -> randomId >>= oneWorld conn)

-- | One autocommitted UPDATE per row, so concurrent requests cannot deadlock on each other's rows.
updateWorlds :: Connection -> Int -> IO [World]
updateWorlds conn n = do
  worlds <- someWorlds conn n
  fresh <- forM worlds (\w -> World (worldId w) <$> randomId)
  forM_ fresh $ \w ->
    execute conn "UPDATE world SET randomnumber = ? WHERE id = ?" (worldRandom w, worldId w)
  pure fresh
