package webshootout.grpcjava;

import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import webshootout.BenchGrpc;
import webshootout.BenchOuterClass.CountReply;
import webshootout.BenchOuterClass.CountRequest;
import webshootout.BenchOuterClass.SumReply;
import webshootout.BenchOuterClass.SumRequest;

/**
 * The contract's Bench service (docs/workloads.md, grpc-unary and grpc-stream) on the base class protoc-gen-grpc-java
 * generates from proto/bench.proto. Every answer is computed from its request. A refusal is
 * Status.INVALID_ARGUMENT with no description, so no grpc-message goes out.
 */
final class BenchService extends BenchGrpc.BenchImplBase {
    private static final int MAX_COUNT = 1000;

    @Override
    public void sum(SumRequest request, StreamObserver<SumReply> responses) {
        int a = request.getA();
        int b = request.getB();
        if (a < 0 || b < 0) {
            responses.onError(Status.INVALID_ARGUMENT.asRuntimeException());
            return;
        }
        // Widened before adding: two int32s at 2^31-1 overflow an int, never a long.
        responses.onNext(SumReply.newBuilder().setSum((long) a + b).build());
        responses.onCompleted();
    }

    @Override
    public void count(CountRequest request, StreamObserver<CountReply> responses) {
        int start = request.getStart();
        int n = request.getN();
        if (n < 1 || n > MAX_COUNT || start < 0) {
            responses.onError(Status.INVALID_ARGUMENT.asRuntimeException());
            return;
        }
        // At most 1,000 messages of a few bytes each: grpc-java queues what the peer's flow-control window does not
        // take yet, so no onReady pacing is needed for a stream this small.
        for (int i = 0; i < n; i++) {
            responses.onNext(CountReply.newBuilder().setValue((long) start + i).build());
        }
        responses.onCompleted();
    }
}
