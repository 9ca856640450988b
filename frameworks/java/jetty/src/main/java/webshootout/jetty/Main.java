package webshootout.jetty;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Path;
import java.time.Duration;
import org.eclipse.jetty.ee10.servlet.ResourceServlet;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.ee10.websocket.server.config.JettyWebSocketServletContainerInitializer;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.SizeLimitHandler;
import org.eclipse.jetty.server.handler.gzip.GzipHandler;
import org.eclipse.jetty.util.component.LifeCycle;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import webshootout.common.Env;
import webshootout.common.JdbcItems;
import webshootout.common.JdbcWorkloads;
import webshootout.common.PemKeyStore;
import webshootout.common.Upload;
import webshootout.common.jetty.Connectors;

/** Embedded Jetty 12 with one plain servlet per workload, thread per request. */
public final class Main {
    /** The servlet default charset is ISO-8859-1: every text answer names UTF-8 instead. */
    static final String TEXT = "text/plain;charset=utf-8";

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        Env env = Env.fromSystem();
        PemKeyStore tls = PemKeyStore.fromEnv();
        // The HikariCP pool every database servlet borrows from.
        HikariDataSource pool = new HikariDataSource(new HikariConfig(env.hikari()));
        JdbcWorkloads workloads = new JdbcWorkloads(pool);
        ObjectMapper mapper = new ObjectMapper();

        // Blocking JDBC holds a thread per database request, so the pool has room for every pooled
        // connection's request plus the CPU-bound ones; idle keep-alive connections hold no thread.
        int maxThreads = Math.max(32, 16 * env.workers());
        QueuedThreadPool threads = new QueuedThreadPool(maxThreads, Math.min(8, maxThreads));
        threads.setName("http");
        Server server = new Server(threads);
        ServerConnector connector = Connectors.connector(server, new HttpConfiguration(), env.workers(), tls);
        connector.setHost(env.host());
        connector.setPort(env.port());
        // Jetty passes 0 to the JDK, whose backlog is then 50: 64 clients connecting at once lose SYNs and
        // wait a second to retry. Jetty's docs name acceptQueueSize as the knob; 1024 is what Rust's and
        // Python's servers use by default (Go and Node follow the kernel's somaxconn or 511).
        connector.setAcceptQueueSize(1024);
        server.addConnector(connector);

        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        context.addServlet(new ServletHolder(new HelloServlets.Plaintext()), "/plaintext");
        context.addServlet(new ServletHolder(new HelloServlets.Json(mapper)), "/json");
        // Servlet async must be declared per servlet; only async suspends its requests.
        ServletHolder async = new ServletHolder(new AsyncServlet(server.getScheduler()));
        async.setAsyncSupported(true);
        context.addServlet(async, "/async");
        context.addServlet(new ServletHolder(new WorldServlet(mapper, request -> workloads.db())), "/db");
        context.addServlet(new ServletHolder(new SessionServlet(pool, mapper)), "/session");
        // One holder for the collection and its members, so both share the servlet's per-method routing.
        ServletHolder items = new ServletHolder(new ItemsServlet(mapper, new JdbcItems(pool)));
        context.addServlet(items, ItemsServlet.PATH);
        context.addServlet(items, ItemsServlet.PATH + "/*");
        context.addServlet(new ServletHolder(new HashServlet(Path.of(env.hashFile()))), "/hash");
        context.addServlet(new ServletHolder(new JsonCompServlet(mapper)), "/json-comp");
        context.addServlet(new ServletHolder(new UploadServlet()), "/upload");
        context.addServlet(new ServletHolder(new WorldServlet(mapper,
                request -> workloads.queries(request.getParameter("queries")))), "/queries");
        context.addServlet(new ServletHolder(new WorldServlet(mapper,
                request -> workloads.updates(request.getParameter("queries")))), "/updates");
        context.addServlet(new ServletHolder(new FortunesServlet(workloads)), "/fortunes");
        context.addServlet(new ServletHolder(new WorldServlet(mapper,
                request -> workloads.cached(request.getParameter("count")))), "/cached-queries");
        ServletHolder files = new ServletHolder("static", ResourceServlet.class);
        files.setInitParameter("baseResource", Path.of(env.staticDir()).toUri().toString());
        files.setInitParameter("pathInfoOnly", "true");
        files.setInitParameter("dirAllowed", "false");
        context.addServlet(files, "/static/*");
        JettyWebSocketServletContainerInitializer.configure(context, (servletContext, container) -> {
            container.setIdleTimeout(Duration.ofMinutes(5));
            container.addMapping("/ws", (upgradeRequest, upgradeResponse) -> new EchoSocket());
        });
        // Request bodies: Jetty 12 sets no size limit of its own; its SizeLimitHandler (jetty-server, "limit the
        // size of message bodies in requests and responses") answers 413 to a Content-Length over the limit and
        // fails the read of a chunked body once it passes it. Responses are not limited (-1).
        SizeLimitHandler limit = new SizeLimitHandler(Upload.LIMIT, -1);
        limit.setHandler(context);
        // Response compression: Jetty's GzipHandler as it comes (deflater level -1, zlib's default 6; minGzipSize
        // 32 bytes; GET only; every type but already-compressed ones), around the whole context as Jetty's docs
        // place it. It adds Vary: Accept-Encoding itself; it speaks gzip only, so br asks get identity.
        GzipHandler gzip = new GzipHandler();
        gzip.setHandler(limit);
        server.setHandler(gzip);

        // SIGTERM runs the JVM's shutdown hooks: Jetty stops, then the pool closes.
        server.setStopAtShutdown(true);
        server.addEventListener(new LifeCycle.Listener() {
            @Override
            public void lifeCycleStopped(LifeCycle event) {
                pool.close();
            }
        });
        server.start();
        server.join();
    }
}
