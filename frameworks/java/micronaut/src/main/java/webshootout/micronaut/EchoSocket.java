package webshootout.micronaut;

import io.micronaut.websocket.WebSocketSession;
import io.micronaut.websocket.annotation.OnMessage;
import io.micronaut.websocket.annotation.ServerWebSocket;
import org.reactivestreams.Publisher;

/** websocket: Micronaut's WebSocket support, every text message sent back. */
@ServerWebSocket("/ws")
public class EchoSocket {
    @OnMessage
    public Publisher<String> onMessage(String message, WebSocketSession session) {
        return session.send(message);
    }
}
