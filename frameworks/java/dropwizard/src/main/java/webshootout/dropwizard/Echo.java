package webshootout.dropwizard;

import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;

/**
 * websocket: every text message goes back as it came; the next one is demanded once the echo is written.
 * Public: Jetty invokes it by method handles.
 */
public final class Echo extends Session.Listener.Abstract {
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
