package webshootout.vertxgrpc;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.grpc.common.GrpcMessageDecoder;
import io.vertx.grpc.common.GrpcMessageEncoder;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.common.ServiceMethod;
import io.vertx.grpc.common.ServiceName;
import io.vertx.grpc.server.GrpcServer;
import io.vertx.grpc.server.GrpcServerResponse;
import webshootout.BenchOuterClass.CountReply;
import webshootout.BenchOuterClass.CountRequest;
import webshootout.BenchOuterClass.SumReply;
import webshootout.BenchOuterClass.SumRequest;

/**
 * The contract's Bench service (docs/workloads.md, grpc-unary and grpc-stream) on Vert.x's gRPC server API: each
 * method a ServiceMethod of protoc's messages (Vert.x's "Server request/response API"), no generated service. Every
 * answer is computed from its request; a refusal is INVALID_ARGUMENT with no message.
 */
final class BenchVerticle extends VerticleBase {
    private static final ServiceName BENCH = ServiceName.create("webshootout", "Bench");
    private static final ServiceMethod<SumRequest, SumReply> SUM = ServiceMethod.server(BENCH, "Sum",
            GrpcMessageEncoder.encoder(), GrpcMessageDecoder.decoder(SumRequest.newBuilder()));
    private static final ServiceMethod<CountRequest, CountReply> COUNT = ServiceMethod.server(BENCH, "Count",
            GrpcMessageEncoder.encoder(), GrpcMessageDecoder.decoder(CountRequest.newBuilder()));
    private static final int MAX_COUNT = 1000;

    private final HttpServerOptions options;

    BenchVerticle(HttpServerOptions options) {
        this.options = options;
    }

    @Override
    public Future<?> start() {
        GrpcServer grpc = GrpcServer.server(vertx);
        grpc.callHandler(SUM, call -> call.handler(request -> sum(request, call.response())));
        grpc.callHandler(COUNT, call -> call.handler(request -> count(request, call.response())));
        return vertx.createHttpServer(options).requestHandler(grpc).listen();
    }

    private static void sum(SumRequest request, GrpcServerResponse<SumRequest, SumReply> response) {
        int a = request.getA();
        int b = request.getB();
        if (a < 0 || b < 0) {
            response.status(GrpcStatus.INVALID_ARGUMENT).end();
            return;
        }
        // Widened before adding: two int32s at 2^31-1 overflow an int, never a long.
        response.end(SumReply.newBuilder().setSum((long) a + b).build());
    }

    private static void count(CountRequest request, GrpcServerResponse<CountRequest, CountReply> response) {
        int start = request.getStart();
        int n = request.getN();
        if (n < 1 || n > MAX_COUNT || start < 0) {
            response.status(GrpcStatus.INVALID_ARGUMENT).end();
            return;
        }
        // At most 1,000 messages of a few bytes: Vert.x queues what the peer's window does not take yet.
        for (int i = 0; i < n - 1; i++) {
            response.write(CountReply.newBuilder().setValue((long) start + i).build());
        }
        response.end(CountReply.newBuilder().setValue((long) start + n - 1).build());
    }
}
