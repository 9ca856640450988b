package webshootout.vertx;

import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import java.util.ArrayList;
import java.util.List;
import webshootout.common.Env;
import webshootout.common.TlsFiles;
import webshootout.common.World;
import webshootout.common.WorldCache;

/** Vert.x 5: WORKERS event loops, one HTTP server verticle on each, sharing the port and one PostgreSQL pool. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        Env env = Env.fromSystem();
        HttpServerOptions options = serverOptions(env);
        // No worker-thread tuning beyond Vert.x's defaults: only hash (blocking file read, CPU) runs there.
        // --prefer-native-transport (the vertx-tuned id) asks for Netty's native epoll transport, which Vert.x's
        // "Native transports" docs name; without it, Vert.x's default: the JDK's NIO.
        boolean preferNative = List.of(args).contains("--prefer-native-transport");
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(env.workers())
                .setPreferNativeTransport(preferNative));
        // Vert.x falls back to NIO quietly when the native library cannot load: a run labelled as native must not.
        if (preferNative && !vertx.isNativeTransportEnabled()) {
            System.err.println("--prefer-native-transport: Vert.x could not load a native transport: "
                    + vertx.unavailableNativeTransportCause());
            System.exit(1);
        }
        PgConnectOptions connect = new PgConnectOptions().setHost(env.pgHost()).setPort(env.pgPort())
                .setUser(env.pgUser()).setPassword(env.pgPassword()).setDatabase(env.pgDatabase())
                .setCachePreparedStatements(true);
        // One process: DB_POOL_TOTAL connections in all (the fairness rule, docs/fairness.md), shared by the
        // verticles; each connection pipelines its queries (the client's default pipelining limit).
        Pool pool = PgBuilder.pool().with(new PoolOptions().setMaxSize(env.dbPool())).connectingTo(connect)
                .using(vertx).build();
        pool.query("SELECT id, randomnumber FROM world").execute()
                .map(rows -> {
                    List<World> all = new ArrayList<>(rows.size());
                    rows.forEach(row -> all.add(new World(row.getInteger(0), row.getInteger(1))));
                    return new WorldCache(all);
                })
                .compose(cache -> vertx.deployVerticle(() -> new ServerVerticle(env, options, pool, cache),
                        new DeploymentOptions().setInstances(env.workers())))
                .onSuccess(id -> System.out.println("Vert.x listening on " + env.host() + ":" + env.port()))
                .onFailure(failure -> {
                    failure.printStackTrace();
                    System.exit(1);
                });
    }

    /**
     * Cleartext HTTP/1.1 as Vert.x serves it by default (which also takes h2c, its default), with compression on. With TLS_CERT and
     * TLS_KEY (PEM paths): TLS only on PORT, ALPN offering h2 and http/1.1 (Vert.x's default ALPN versions).
     */
    static HttpServerOptions serverOptions(Env env) {
        // Response compression, Vert.x's HttpServerOptions.setCompressionSupported as it comes: gzip and deflate at
        // compressionLevel 6 (its default), compressionContentSizeThreshold 0, for any answer whose request accepts
        // gzip (only json-comp's load asks); no brotli compressor by default, so a br request gets identity.
        HttpServerOptions options = new HttpServerOptions().setHost(env.host()).setPort(env.port())
                .setCompressionSupported(true);
        TlsFiles tls = TlsFiles.fromEnv();
        if (tls == null) {
            return options;
        }
        return options.setSsl(true).setUseAlpn(true)
                .setKeyCertOptions(new PemKeyCertOptions().setCertPath(tls.cert()).setKeyPath(tls.key()));
    }
}
