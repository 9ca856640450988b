package webshootout.jetty;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.util.thread.Scheduler;
import webshootout.common.Async;

/**
 * async: the Servlet API's own way to wait without a request thread. The request is suspended (startAsync),
 * Jetty's scheduler (the one its own timeouts run on) fires after the wait, and plaintext's answer is written
 * on a pool thread the container lends for it (AsyncContext.start), not on the scheduler's single thread.
 */
final class AsyncServlet extends HttpServlet {
    private final Scheduler scheduler;

    AsyncServlet(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) {
        AsyncContext async = request.startAsync();
        scheduler.schedule(() -> async.start(() -> answer(async)), Async.WAIT.toMillis(), TimeUnit.MILLISECONDS);
    }

    private static void answer(AsyncContext async) {
        try {
            HelloServlets.Plaintext.write((HttpServletResponse) async.getResponse());
        } catch (IOException e) {
            // The client went away while the request waited: nothing left to answer.
        } finally {
            async.complete();
        }
    }
}
