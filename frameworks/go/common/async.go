package common

import "time"

// AsyncWait is the async workload's wait before it answers `Hello, World!` (docs/workloads.md): every Go
// stack sleeps it with time.Sleep inside its handler. A sleeping goroutine holds no OS thread (the runtime
// parks it on a timer), and each request or connection has its own goroutine, so the waits overlap.
const AsyncWait = 15 * time.Millisecond
