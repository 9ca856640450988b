package webshootout.spring;

import java.io.IOException;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.config.annotation.EnableWebSocket;
import org.springframework.web.socket.config.annotation.WebSocketConfigurer;
import org.springframework.web.socket.config.annotation.WebSocketHandlerRegistry;
import org.springframework.web.socket.handler.TextWebSocketHandler;

/** websocket: Spring's WebSocket support (on Tomcat's JSR 356 container) echoing every text message. */
@Configuration
@EnableWebSocket
class EchoSocket implements WebSocketConfigurer {
    @Override
    public void registerWebSocketHandlers(WebSocketHandlerRegistry registry) {
        registry.addHandler(new Echo(), "/ws");
    }

    static final class Echo extends TextWebSocketHandler {
        // Spring calls a session's handler one message at a time, so replying here never overlaps a send.
        @Override
        protected void handleTextMessage(WebSocketSession session, TextMessage message) throws IOException {
            session.sendMessage(message);
        }
    }
}
