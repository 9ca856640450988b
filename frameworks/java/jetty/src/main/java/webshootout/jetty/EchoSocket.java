package webshootout.jetty;

import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;

/**
 * websocket: echoes every text message. The next message is demanded only once the echo is written,
 * so a client that does not read cannot pile up outgoing frames. Public: Jetty invokes it by method handles.
 */
public final class EchoSocket extends Session.Listener.Abstract {
    @Override
    public void onWebSocketOpen(Session session) {
        super.onWebSocketOpen(session);
        session.demand();
    }

    @Override
    public void onWebSocketText(String message) {
        Session session = getSession();
        session.sendText(message, Callback.from(session::demand, failure -> session.close()));
    }
}
