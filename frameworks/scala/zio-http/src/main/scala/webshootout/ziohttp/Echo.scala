package webshootout.ziohttp

import zio.*
import zio.http.*
import zio.http.ChannelEvent.Read

/**
 * websocket: every text message back as it came. A message fragmented into a text frame and continuation frames
 * goes back frame by frame, the same fragments in order; binary messages (and their continuations) are dropped.
 */
object Echo:
  val socket: WebSocketApp[Any] =
    Handler.webSocket { channel =>
      Ref.make(false).flatMap { inText =>
        channel.receiveAll {
          case Read(frame: WebSocketFrame.Text) =>
            inText.set(!frame.isFinal) *> channel.send(Read(WebSocketFrame.Text(frame.text, frame.isFinal)))
          case Read(frame: WebSocketFrame.Continuation) =>
            inText.get.flatMap { continuing =>
              ZIO.when(continuing) {
                channel.send(Read(WebSocketFrame.Continuation(frame.buffer, frame.isFinal))) *> inText.set(!frame.isFinal)
              }
            }
          case Read(_: WebSocketFrame.Binary) => inText.set(false)
          case _ => ZIO.unit
        }
      }
    }
