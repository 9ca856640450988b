{-# LANGUAGE OverloadedStrings #-}
-- | The cached workload's in-process copy of world, filled from one SELECT on first use.
module Shootout.Cache (WorldCache, newWorldCache, cachedWorlds) where

import Control.Concurrent.MVar
import Control.Monad (forM)
import qualified Data.IntMap.Strict as IM
import Data.IORef
import Data.Pool (Pool)
import Database.PostgreSQL.Simple (Connection, query_)
import Shootout.World

data WorldCache = WorldCache (Pool Connection) (MVar ()) (IORef (Maybe (IM.IntMap World)))

newWorldCache :: Pool Connection -> IO WorldCache
newWorldCache pool = WorldCache pool <$> newMVar () <*> newIORef Nothing

-- | The lock only serialises the first fill; afterwards a read is one IORef read.
loaded :: WorldCache -> IO (IM.IntMap World)
loaded (WorldCache pool lock ref) = readIORef ref >>= maybe fill pure
  where
    fill = withMVar lock $ \_ -> readIORef ref >>= maybe load pure
    load = do
      rows <- withDb pool (\c -> query_ c "SELECT id, randomnumber FROM world")
      let table = IM.fromList [(worldId w, w) | w <- rows]
      writeIORef ref (Just table)
      pure table

cachedWorlds :: WorldCache -> Int -> IO [World]
cachedWorlds cache n = do
  table <- loaded cache
  forM [1 .. n] $ \_ -> do
    i <- randomId
    maybe (fail ("no world row " <> show i)) pure (IM.lookup i table)
