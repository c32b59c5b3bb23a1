//! The thread pool every kernel runs in.
//!
//! Its size can change while calls are running: the pool lives behind an `Arc`, a call clones the
//! `Arc` it starts with and finishes on that pool, and `set_num_threads` swaps in a new one (the old
//! pool's threads exit when its last call returns).

use std::sync::{Arc, RwLock};

use rayon::{ThreadPool, ThreadPoolBuilder};

use crate::error::{CoreError, Result};

pub const ENV_VAR: &str = "RUST_CORE_NUM_THREADS";

static POOL: RwLock<Option<Arc<ThreadPool>>> = RwLock::new(None);

/// `RUST_CORE_NUM_THREADS` when it holds a whole number ≥ 1, else the number of available cores.
pub fn default_num_threads() -> usize {
    std::env::var(ENV_VAR)
        .ok()
        .and_then(|s| s.trim().parse::<usize>().ok())
        .filter(|&n| n >= 1)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

fn build(n: usize) -> Result<Arc<ThreadPool>> {
    ThreadPoolBuilder::new()
        .num_threads(n)
        .thread_name(|i| format!("rust_core-{i}"))
        .build()
        .map(Arc::new)
        .map_err(|e| CoreError::Value(format!("cannot start {n} threads: {e}")))
}

/// The current pool (created on first use).
pub fn pool() -> Result<Arc<ThreadPool>> {
    // A poisoned lock only means another thread panicked while holding it; the Option inside is
    // still a valid pool or None, so recover the guard rather than propagate the panic.
    if let Some(p) = POOL.read().unwrap_or_else(|e| e.into_inner()).as_ref() {
        return Ok(Arc::clone(p));
    }
    let mut slot = POOL.write().unwrap_or_else(|e| e.into_inner());
    if slot.is_none() {
        *slot = Some(build(default_num_threads())?);
    }
    Ok(Arc::clone(slot.as_ref().expect("pool was just set")))
}

pub fn set_num_threads(n: i64) -> Result<()> {
    if n < 1 {
        return Err(CoreError::Value(format!(
            "number of threads must be at least 1, got {n}"
        )));
    }
    let new = build(n as usize)?;
    *POOL.write().unwrap_or_else(|e| e.into_inner()) = Some(new);
    Ok(())
}

pub fn get_num_threads() -> Result<usize> {
    Ok(pool()?.current_num_threads())
}

/// Below this many multiply-adds (or copies) a call stays on the calling thread: handing it to the
/// pool and back costs more than it saves.
pub const PARALLEL_MIN_WORK: usize = 1 << 16;

/// Run a call of about `work` elementary operations: inside the pool when it is big enough to share
/// and the pool has more than one thread, else right here on the calling thread. Kernels split their
/// work only when they find themselves on a pool thread (`in_pool`), so a one-thread setting really
/// means one thread, and calls from several Python threads then run side by side on their own threads.
pub fn run<R: Send>(work: usize, f: impl FnOnce() -> R + Send) -> Result<R> {
    let pool = pool()?;
    if work < PARALLEL_MIN_WORK || pool.current_num_threads() == 1 {
        Ok(f())
    } else {
        Ok(pool.install(f))
    }
}

/// True on a thread of the pool, where a kernel may split its work with rayon.
pub fn in_pool() -> bool {
    rayon::current_thread_index().is_some()
}
