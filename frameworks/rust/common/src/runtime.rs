//! The tokio runtime of the stacks that bring their own (axum, hyperlane): a multi-thread runtime
//! with WORKERS worker threads, the fairness rule's count for a single-process server.

use std::future::Future;

pub fn block_on<F: Future>(workers: usize, future: F) -> F::Output {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .enable_all()
        .build()
        .expect("tokio runtime")
        .block_on(future)
}
