package webshootout.webflux;

import java.util.Map;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.reactive.handler.SimpleUrlHandlerMapping;
import org.springframework.web.reactive.socket.WebSocketHandler;

/** websocket: WebFlux's reactive WebSocket support, every text message sent back. */
@Configuration
class EchoSocket {
    @Bean
    HandlerMapping webSocketMapping() {
        WebSocketHandler echo = session -> session.send(
                session.receive().map(message -> session.textMessage(message.getPayloadAsText())));
        return new SimpleUrlHandlerMapping(Map.of("/ws", echo), -1);
    }
}
