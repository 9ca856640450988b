package webshootout.undertow;

import io.undertow.websockets.WebSocketConnectionCallback;
import io.undertow.websockets.core.AbstractReceiveListener;
import io.undertow.websockets.core.BufferedTextMessage;
import io.undertow.websockets.core.WebSocketChannel;
import io.undertow.websockets.core.WebSockets;
import io.undertow.websockets.spi.WebSocketHttpExchange;

/** websocket: Undertow's own WebSocket API; each whole text message is sent back as it came. */
final class Echo implements WebSocketConnectionCallback {
    private static final AbstractReceiveListener ECHO = new AbstractReceiveListener() {
        @Override
        protected void onFullTextMessage(WebSocketChannel channel, BufferedTextMessage message) {
            WebSockets.sendText(message.getData(), channel, null);
        }
    };

    @Override
    public void onConnect(WebSocketHttpExchange exchange, WebSocketChannel channel) {
        channel.getReceiveSetter().set(ECHO);
        channel.resumeReceives();
    }
}
