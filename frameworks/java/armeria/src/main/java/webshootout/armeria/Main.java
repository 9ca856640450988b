package webshootout.armeria;

import com.linecorp.armeria.common.websocket.WebSocket;
import com.linecorp.armeria.common.websocket.WebSocketFrameType;
import com.linecorp.armeria.server.Server;
import com.linecorp.armeria.server.ServerBuilder;
import com.linecorp.armeria.server.file.FileService;
import com.linecorp.armeria.server.websocket.WebSocketService;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.File;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import webshootout.common.Env;
import webshootout.common.JdbcWorkloads;
import webshootout.common.TlsFiles;

/** Armeria's server: an annotated service for the workloads, its FileService and WebSocketService beside it. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) throws Exception {
        Env env = Env.fromSystem();
        TlsFiles tls = TlsFiles.fromEnv();
        HikariDataSource pool = new HikariDataSource(new HikariConfig(env.hikari()));
        Workloads workloads = new Workloads(new JdbcWorkloads(pool), pool, Path.of(env.hashFile()));

        InetSocketAddress address = new InetSocketAddress(env.host(), env.port());
        ServerBuilder builder = Server.builder()
                // WORKERS Netty event loops for the connections (Armeria's default is 2 x CPUs).
                .workerGroup(env.workers())
                // Server and Date: Armeria's own, on by default (disableServerHeader/disableDateHeader not called).
                .annotatedService(workloads)
                .serviceUnder("/static", FileService.of(Path.of(env.staticDir())))
                // websocket: text frames (and the closing handshake) go back as they came. WebSocketService refuses
                // cross-origin upgrades (403) unless allowed; the load generator is no browser, so any origin.
                .service("/ws", WebSocketService.builder((ctx, in) -> WebSocket.of(in.filter(frame ->
                        frame.type() == WebSocketFrameType.TEXT || frame.type() == WebSocketFrameType.CLOSE)))
                        .allowedOrigins("*")
                        .build());
        if (tls == null) {
            // Cleartext: HTTP/1.1, and HTTP/2 (h2c) by prior knowledge or Upgrade, Armeria's default on an http port.
            builder.http(address);
        } else {
            // TLS only; ALPN offers h2 and http/1.1.
            builder.https(address).tls(new File(tls.cert()), new File(tls.key()));
        }
        Server server = builder.build();
        server.closeOnJvmShutdown(pool::close);
        server.start().join();
    }
}
