package webshootout.grpcjava;

import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.IoHandlerFactory;
import io.grpc.netty.shaded.io.netty.channel.MultiThreadIoEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.ServerChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollIoHandler;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.nio.NioIoHandler;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioServerSocketChannel;
import java.io.File;
import java.net.InetSocketAddress;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;

/**
 * grpc-java's Netty server: one boss event loop accepting, WORKERS worker event loops serving the connections, and
 * the calls run on a ForkJoinPool of WORKERS threads. h2c with prior knowledge on PORT; with TLS_CERT and TLS_KEY,
 * TLS only, ALPN h2.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) throws Exception {
        String host = env("HOST", "0.0.0.0");
        int port = Integer.parseInt(env("PORT", "8080"));
        int workers = Math.max(1, Integer.parseInt(env("WORKERS", "1")));

        // The native epoll transport that grpc-netty-shaded carries, which grpc-java itself picks on Linux when no
        // event loops are given (its Utils.DEFAULT_SERVER_KIND); NIO only where the native library cannot load.
        boolean epoll = Epoll.isAvailable();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        Class<? extends ServerChannel> channel = epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        if (!epoll) {
            System.err.println("grpc-java: native epoll unavailable, serving on NIO: " + Epoll.unavailabilityCause());
        }
        EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, io);
        EventLoopGroup workerLoops = new MultiThreadIoEventLoopGroup(workers, io);
        // grpc.io's performance guide for Java: "Provide a custom executor that limits the number of threads, based
        // on your workload"; grpc-java's own benchmark server (benchmarks AsyncServer) uses a ForkJoinPool of one
        // thread per core in async mode, as here, instead of the unbounded cached pool that is the default.
        ForkJoinPool calls = new ForkJoinPool(workers, ForkJoinPool.defaultForkJoinWorkerThreadFactory, null, true);

        NettyServerBuilder builder = NettyServerBuilder.forAddress(new InetSocketAddress(host, port))
                .channelType(channel)
                .bossEventLoopGroup(boss)
                .workerEventLoopGroup(workerLoops)
                .executor(calls)
                .addService(new BenchService());
        String cert = System.getenv("TLS_CERT");
        String key = System.getenv("TLS_KEY");
        if (cert != null || key != null) {
            if (cert == null || key == null) {
                throw new IllegalStateException("TLS_CERT=" + cert + " and TLS_KEY=" + key + ": set both or neither");
            }
            // GrpcSslContexts configures the context for gRPC: ALPN offering h2 only, HTTP/2's cipher suites, and
            // OpenSSL (the BoringSSL inside grpc-netty-shaded) when it loads, else the JDK's provider.
            builder.sslContext(GrpcSslContexts.forServer(new File(cert), new File(key)).build());
        }
        Server server = builder.build().start();
        System.out.println("grpc-java " + (cert != null ? "TLS (h2)" : "h2c") + " on " + host + ":" + port
                + ", " + workers + " event loops, " + (epoll ? "epoll" : "nio"));

        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.shutdown();
            try {
                server.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            server.shutdownNow();
            workerLoops.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            boss.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            calls.shutdown();
        }));
        server.awaitTermination();
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isEmpty() ? fallback : value;
    }
}
