package webshootout.vertxgrpc;

import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.net.PemKeyCertOptions;
import java.util.List;
import webshootout.common.TlsFiles;

/**
 * Vert.x 5's gRPC server: WORKERS event loops, one verticle on each, all sharing PORT (Vert.x spreads the
 * connections over the verticles' servers). Cleartext PORT takes h2c with prior knowledge, Vert.x's default; with
 * TLS_CERT and TLS_KEY, TLS only, ALPN h2.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        int workers = Math.max(1, Integer.parseInt(env("WORKERS", "1")));
        HttpServerOptions options = serverOptions();
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(workers));
        vertx.deployVerticle(() -> new BenchVerticle(options), new DeploymentOptions().setInstances(workers))
                .onSuccess(id -> System.out.println("Vert.x gRPC " + (options.isSsl() ? "TLS (h2)" : "h2c") + " on "
                        + options.getHost() + ":" + options.getPort() + ", " + workers + " event loops"))
                .onFailure(failure -> {
                    failure.printStackTrace();
                    System.exit(1);
                });
    }

    private static HttpServerOptions serverOptions() {
        HttpServerOptions options = new HttpServerOptions().setHost(env("HOST", "0.0.0.0"))
                .setPort(Integer.parseInt(env("PORT", "8080")));
        TlsFiles tls = TlsFiles.fromEnv();
        if (tls == null) {
            return options;
        }
        // gRPC is HTTP/2 only, so ALPN offers h2 alone (Vert.x's default list also offers http/1.1).
        return options.setSsl(true).setUseAlpn(true).setAlpnVersions(List.of(HttpVersion.HTTP_2))
                .setKeyCertOptions(new PemKeyCertOptions().setCertPath(tls.cert()).setKeyPath(tls.key()));
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isEmpty() ? fallback : value;
    }
}
