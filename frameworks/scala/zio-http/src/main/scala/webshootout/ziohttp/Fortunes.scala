package webshootout.ziohttp

import zio.http.template2.*

import webshootout.common.Fortune

/** fortunes' page, by ZIO HTTP's own template DSL (template2), which HTML-escapes text as it renders. */
object Fortunes:
  def page(fortunes: Iterable[Fortune]): Dom =
    html(
      head(title("Fortunes")),
      body(
        table(
          tr(th("id"), th("message")),
          fortunes.map(fortune => tr(td(fortune.id.toString), td(fortune.message))),
        )
      ),
    )
