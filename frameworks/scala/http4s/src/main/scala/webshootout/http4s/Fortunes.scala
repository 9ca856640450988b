package webshootout.http4s

import cats.effect.IO
import org.http4s.{Charset, EntityEncoder, MediaType}
import org.http4s.headers.`Content-Type`
import scalatags.Text.all.*
import scalatags.Text.tags2

/**
 * fortunes' page, built by scalatags (text is HTML-escaped as it is added). http4s-scalatags, http4s's module
 * for it, is not served by the registry here; its encoder is this one line: the rendered page as UTF-8
 * text/html.
 */
object Fortunes:
  def page(fortunes: List[Fortune]): doctype =
    doctype("html")(
      html(
        head(tags2.title("Fortunes")),
        body(
          table(
            tr(th("id"), th("message")),
            fortunes.map(fortune => tr(td(fortune.id), td(fortune.message))),
          )
        ),
      )
    )

  given EntityEncoder[IO, doctype] =
    EntityEncoder.stringEncoder[IO].contramap[doctype](_.render)
      .withContentType(`Content-Type`(MediaType.text.html, Charset.`UTF-8`))
