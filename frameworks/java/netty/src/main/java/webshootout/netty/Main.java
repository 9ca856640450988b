package webshootout.netty;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerKeepAliveHandler;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.stream.ChunkedWriteHandler;
import java.io.File;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import webshootout.common.Env;
import webshootout.common.JdbcWorkloads;
import webshootout.common.TlsFiles;

/**
 * Bare Netty: one boss loop accepting, WORKERS event loops serving, each connection's pipeline being Netty's HTTP
 * codec (HttpServerCodec + HttpObjectAggregator), its keep-alive handler, its WebSocket handshake handler and the
 * application's handler. The native epoll transport where Netty finds it (Linux), NIO otherwise.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) throws Exception {
        Env env = Env.fromSystem();
        TlsFiles tls = TlsFiles.fromEnv();
        SslContext ssl = tls == null ? null
                : SslContextBuilder.forServer(new File(tls.cert()), new File(tls.key())).build();
        HikariDataSource pool = new HikariDataSource(new HikariConfig(env.hikari()));
        JdbcWorkloads workloads = new JdbcWorkloads(pool);
        // Work that blocks must stay off the event loops (ChannelPipeline's javadoc): JDBC on one thread per pooled
        // connection, the hash workload's file read and digests on WORKERS threads.
        ExecutorService database = Executors.newFixedThreadPool(env.dbPool(), named("jdbc"));
        ExecutorService hashing = Executors.newFixedThreadPool(env.workers(), named("hash"));
        App app = new App(env, workloads, pool, database, hashing);

        boolean epoll = Epoll.isAvailable();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        Class<? extends ServerChannel> channel = epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        if (!epoll) {
            System.err.println("netty: native epoll unavailable, serving with NIO: " + Epoll.unavailabilityCause());
        }
        EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, io);
        EventLoopGroup workers = new MultiThreadIoEventLoopGroup(env.workers(), io);
        try {
            Channel server = new ServerBootstrap()
                    .group(boss, workers)
                    .channel(channel)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ChannelPipeline pipeline = ch.pipeline();
                            if (ssl != null) {
                                pipeline.addLast(ssl.newHandler(ch.alloc()));
                            }
                            pipeline.addLast(new HttpServerCodec(), new HttpServerKeepAliveHandler(),
                                    new HttpObjectAggregator(65536), new ChunkedWriteHandler(),
                                    new WebSocketServerProtocolHandler("/ws"), new Echo(), app);
                        }
                    })
                    .bind(env.host(), env.port()).sync().channel();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                server.close().syncUninterruptibly();
                boss.shutdownGracefully();
                workers.shutdownGracefully();
                database.shutdown();
                hashing.shutdown();
                pool.close();
            }));
            server.closeFuture().sync();
        } finally {
            boss.shutdownGracefully();
            workers.shutdownGracefully();
        }
    }

    private static java.util.concurrent.ThreadFactory named(String name) {
        return task -> {
            Thread thread = new Thread(task, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
