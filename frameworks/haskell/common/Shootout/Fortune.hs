{-# LANGUAGE OverloadedStrings #-}
-- | The fortunes workload: every row, one added at request time, sorted by message, rendered by
-- blaze-html (whose text nodes are escaped).
module Shootout.Fortune (fortunesPage) where

import Control.Monad (forM_)
import Data.List (sortOn)
import qualified Data.ByteString.Lazy as BL
import Data.Text (Text)
import Database.PostgreSQL.Simple
import Text.Blaze.Html.Renderer.Utf8 (renderHtml)
import Text.Blaze.Html5 ((!))
import qualified Text.Blaze.Html5 as H

data Fortune = Fortune !Int !Text

fortunesPage :: Connection -> IO BL.ByteString
fortunesPage conn = do
  rows <- query_ conn "SELECT id, message FROM fortune"
  let fortunes = Fortune 0 "Additional fortune added at request time." : [Fortune i m | (i, m) <- rows]
  pure (renderHtml (page (sortOn (\(Fortune _ m) -> m) fortunes)))

page :: [Fortune] -> H.Html
page fortunes = H.docTypeHtml $ do
  H.head (H.title "Fortunes")
  H.body $ H.table $ do
    H.tr (H.th "id" >> H.th "message")
    forM_ fortunes $ \(Fortune i m) -> H.tr (H.td (H.toHtml i) >> H.td (H.toHtml m))
