// grpc-go serving proto/bench.proto's webshootout.Bench (docs/workloads.md, grpc-unary and grpc-stream): a
// grpc.NewServer with its defaults, as grpc-go's own examples start one, on HOST:PORT; TLS only (ALPN h2, which
// grpc-go's credentials always offer) when TLS_CERT and TLS_KEY are set, else cleartext HTTP/2 with prior
// knowledge, grpc-go's native transport.
package main

import (
	"context"
	"log"
	"net"
	"os"
	"runtime"
	"strconv"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/status"

	pb "webshootout/grpc-go/build/benchpb"
)

// maxCount is the contract's largest n for Count.
const maxCount = 1000

type bench struct {
	pb.UnimplementedBenchServer
}

func (bench) Sum(_ context.Context, req *pb.SumRequest) (*pb.SumReply, error) {
	if req.GetA() < 0 || req.GetB() < 0 {
		return nil, status.Error(codes.InvalidArgument, "a and b must not be negative")
	}
	// Widened first: the sum of two int32s can exceed int32 but never int64.
	return &pb.SumReply{Sum: int64(req.GetA()) + int64(req.GetB())}, nil
}

func (bench) Count(req *pb.CountRequest, stream grpc.ServerStreamingServer[pb.CountReply]) error {
	n, start := req.GetN(), int64(req.GetStart())
	if n < 1 || n > maxCount || start < 0 {
		return status.Error(codes.InvalidArgument, "n must be in 1..1000 and start not negative")
	}
	for i := int64(0); i < int64(n); i++ {
		if err := stream.Send(&pb.CountReply{Value: start + i}); err != nil {
			return err
		}
	}
	return nil
}

func required(name string) string {
	value := os.Getenv(name)
	if value == "" {
		log.Fatalf("environment variable %s is not set", name)
	}
	return value
}

func main() {
	workers, err := strconv.Atoi(required("WORKERS"))
	if err != nil || workers < 1 {
		log.Fatalf("WORKERS=%q is not a positive integer", os.Getenv("WORKERS"))
	}
	// One process: its Go threads running code are the server's worker count (docs/fairness.md).
	runtime.GOMAXPROCS(workers)

	var options []grpc.ServerOption
	cert, key := os.Getenv("TLS_CERT"), os.Getenv("TLS_KEY")
	if (cert == "") != (key == "") {
		log.Fatal("TLS_CERT and TLS_KEY must be set together")
	}
	if cert != "" {
		creds, err := credentials.NewServerTLSFromFile(cert, key)
		if err != nil {
			log.Fatal(err)
		}
		options = append(options, grpc.Creds(creds))
	}

	listener, err := net.Listen("tcp", net.JoinHostPort(required("HOST"), required("PORT")))
	if err != nil {
		log.Fatal(err)
	}
	server := grpc.NewServer(options...)
	pb.RegisterBenchServer(server, bench{})
	log.Fatal(server.Serve(listener))
}
