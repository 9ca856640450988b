package webshootout.quarkus;

import io.quarkus.websockets.next.OnTextMessage;
import io.quarkus.websockets.next.WebSocket;

/** websocket: Quarkus WebSockets Next, every text message sent back. */
@WebSocket(path = "/ws")
public class EchoSocket {
    @OnTextMessage
    public String echo(String message) {
        return message;
    }
}
