//! The thread pool every kernel runs in.
//!
//! Its size can change while calls are running: a call clones the `Arc` of the pool it starts with
//! and finishes on that pool, and `set_num_threads` makes another pool current. At most one pool
//! is kept: the current one, or, while the setting is 1 (which needs no pool: calls then run on
//! the calling thread), the last one of several threads. So a benchmark that switches between 1
//! and N threads finds its N threads already running (a freshly spawned thread starts on its
//! parent's core, and the OS takes milliseconds to move it), while trying sizes 1 to 40 leaves
//! 40 threads, not the 820 that keeping every size would (a replaced pool's threads exit once the
//! calls still running on it have returned).

use std::cell::Cell;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use rayon::{ThreadPool, ThreadPoolBuilder};

use crate::error::{CoreError, Result};

pub const ENV_VAR: &str = "RUST_CORE_NUM_THREADS";

/// The largest pool accepted: asking the OS for hundreds of thousands of threads hangs the
/// process rather than failing.
pub const MAX_THREADS: usize = 1024;

struct Pools {
    /// The setting: how many threads a call may use.
    threads: usize,
    /// A pool of `threads` threads when that is more than 1; else the last pool of several
    /// threads, kept idle for the next setting of its size, or none.
    pool: Option<Arc<ThreadPool>>,
}

static POOLS: Mutex<Option<Pools>> = Mutex::new(None);

/// `RUST_CORE_NUM_THREADS` when it holds a whole number ≥ 1, else the number of available cores.
pub fn default_num_threads() -> usize {
    std::env::var(ENV_VAR)
        .ok()
        .and_then(|s| s.trim().parse::<usize>().ok())
        .filter(|&n| (1..=MAX_THREADS).contains(&n))
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Set to `0` to leave pool threads unpinned (see `pin_to_cpu`); read once, when the first pool
/// starts.
pub const PIN_ENV_VAR: &str = "RUST_CORE_PIN";

/// Whether pool threads are pinned to cores: yes unless `RUST_CORE_PIN` is `0`.
pub fn pinning() -> bool {
    static PIN: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *PIN.get_or_init(|| std::env::var(PIN_ENV_VAR).map_or(true, |v| v.trim() != "0"))
}

/// A pool of `n` threads, returned once every thread has started (and is pinned): a call right
/// after `set_num_threads` finds all of them in place.
fn build(n: usize) -> Result<Arc<ThreadPool>> {
    let pin = pinning();
    let started = Arc::new((Mutex::new(0usize), Condvar::new()));
    let count = Arc::clone(&started);
    let pool = ThreadPoolBuilder::new()
        .num_threads(n)
        .thread_name(|i| format!("rust_core-{i}"))
        .start_handler(move |i| {
            if pin {
                pin_to_cpu(i, n)
            }
            let (done, wake) = &*count;
            *done.lock().unwrap_or_else(|e| e.into_inner()) += 1;
            wake.notify_all();
        })
        .build()
        .map_err(|e| CoreError::Value(format!("cannot start {n} threads: {e}")))?;
    // Every thread was spawned (else `build` failed above), so all n handlers will run.
    let (done, wake) = &*started;
    let mut done = done.lock().unwrap_or_else(|e| e.into_inner());
    while *done < n {
        done = wake.wait(done).unwrap_or_else(|e| e.into_inner());
    }
    Ok(Arc::new(pool))
}

/// Pin pool thread `i` of `n` to the `i`-th CPU this process may use, when there is one for each
/// (unless `RUST_CORE_PIN=0`).
///
/// Without this, the pool can lose its second core after an idle moment: a woken worker is put
/// on the core of the thread that woke it, and the OS moves it away only milliseconds later, so
/// until then the two threads share one core (docs/performance.md).
#[cfg(target_os = "linux")]
fn pin_to_cpu(i: usize, n: usize) {
    // SAFETY: `cpu_set_t` is plain bits, valid when zeroed; both calls only read and write the
    // sets passed by pointer with their true size, and pid 0 means the calling thread.
    unsafe {
        let size = std::mem::size_of::<libc::cpu_set_t>();
        let mut allowed: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, size, &mut allowed) != 0 {
            return;
        }
        let cpus: Vec<usize> = (0..libc::CPU_SETSIZE as usize)
            .filter(|&c| libc::CPU_ISSET(c, &allowed))
            .collect();
        if n > cpus.len() {
            return; // more threads than cores: leave placement to the OS
        }
        let mut one: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpus[i], &mut one);
        // A failure only leaves the thread unpinned, which is still correct.
        libc::sched_setaffinity(0, size, &one);
    }
}

#[cfg(not(target_os = "linux"))]
fn pin_to_cpu(_i: usize, _n: usize) {}

/// The pools, locked. A poisoned lock only means another thread panicked while holding it; the
/// state inside is still valid, so recover the guard rather than propagate the panic.
fn lock() -> MutexGuard<'static, Option<Pools>> {
    POOLS.lock().unwrap_or_else(|e| e.into_inner())
}

/// The state for the setting `n`, after `old`: its pool reused or built (none for 1 thread).
fn choose(old: Option<&Pools>, n: usize) -> Result<Pools> {
    let kept = old.and_then(|p| p.pool.as_ref());
    let pool = match kept {
        Some(p) if n == 1 || p.current_num_threads() == n => Some(Arc::clone(p)),
        _ if n == 1 => None,
        _ => Some(build(n)?), // the caller drops the old state, and with it the kept pool
    };
    Ok(Pools { threads: n, pool })
}

thread_local! {
    /// How many `alone` blocks this thread is inside: while more than 0, its calls run on it
    /// alone, whatever the setting.
    static ALONE: Cell<usize> = const { Cell::new(0) };
}

/// Enter (`true`) or leave (`false`) a block in which this thread's calls run on it alone, as
/// with a setting of 1 thread, while other threads' calls keep the setting: a caller that runs
/// pieces of one job side by side on its own threads gives each piece one core, and the pieces
/// never wait for each other. Blocks nest; leaving more often than entering is ignored.
pub fn alone(enter: bool) {
    ALONE.with(|depth| {
        let d = depth.get();
        depth.set(if enter { d + 1 } else { d.saturating_sub(1) });
    });
}

fn is_alone() -> bool {
    ALONE.with(|depth| depth.get() > 0)
}

/// The setting and, when it is more than 1, its pool; created on first use from
/// `default_num_threads`. Inside an `alone` block: 1, and no pool.
fn current() -> Result<(usize, Option<Arc<ThreadPool>>)> {
    if is_alone() {
        return Ok((1, None));
    }
    // Look and create the default under one lock: with the lock dropped in between, a
    // `set_num_threads` from another Python thread could land in the gap and then be overwritten
    // by the default (tests/test_concurrency.py races the two).
    let mut guard = lock();
    let pools = match &mut *guard {
        Some(pools) => pools,
        empty => empty.insert(choose(None, default_num_threads())?),
    };
    let pool = if pools.threads > 1 {
        pools.pool.clone()
    } else {
        None
    };
    Ok((pools.threads, pool))
}

pub fn set_num_threads(n: i64) -> Result<()> {
    if n < 1 {
        return Err(CoreError::Value(format!(
            "number of threads must be at least 1, got {n}"
        )));
    }
    if n > MAX_THREADS as i64 {
        return Err(CoreError::Value(format!(
            "number of threads must be at most {MAX_THREADS}, got {n}"
        )));
    }
    let mut guard = lock();
    *guard = Some(choose(guard.as_ref(), n as usize)?);
    Ok(())
}

pub fn get_num_threads() -> Result<usize> {
    Ok(current()?.0)
}

/// Below this much work (in multiply-adds of a matrix product; see each kernel's `*_work`) a call
/// stays on the calling thread: waking the pool and joining it costs more than it saves. 2²² lies
/// between attention over 2·8·32² scores (2M), which loses from a second thread, and over
/// 2·8·128² (34M), which gains (docs/performance.md).
pub const PARALLEL_MIN_WORK: usize = 1 << 22;

/// From this much work a kernel that splits through `for_each_part` runs in rayon's pool; below
/// it, `pool_work` keeps the call on the calling thread, where `for_each_part` hands parts to the
/// low-latency team: calls of tens to hundreds of microseconds, such as a training step's
/// products, lose a pool wake-up apiece, which at the learner's sizes costs more than a second
/// thread saves (docs/performance.md). 2²⁶ multiply-adds take about a millisecond on one core.
pub const POOL_MIN_WORK: usize = 1 << 26;

/// The work to hand `run` for a kernel of `work` that splits through `for_each_part`: 0 (stay on
/// the calling thread, and share through the team) below `POOL_MIN_WORK`, else `work`.
pub fn pool_work(work: usize) -> usize {
    if work < POOL_MIN_WORK {
        0
    } else {
        work
    }
}

/// Run a call of about `work` elementary operations: inside the pool when it is big enough to share
/// and the pool has more than one thread, else right here on the calling thread. Kernels split their
/// work only when they find themselves on a pool thread (`in_pool`), so a one-thread setting really
/// means one thread, and calls from several Python threads then run side by side on their own threads.
pub fn run<R: Send>(work: usize, f: impl FnOnce() -> R + Send) -> Result<R> {
    match current()?.1 {
        Some(pool) if work >= PARALLEL_MIN_WORK => {
            crate::runtime::team::park(); // its helpers would spin on the pool's cores
            Ok(pool.install(f))
        }
        _ => Ok(f()),
    }
}

/// The thread setting (1 when it cannot be read: a kernel then runs on the calling thread).
pub fn num_threads() -> usize {
    current().map_or(1, |(n, _)| n)
}

/// A stream of rows (a weight matrix read once) is split into this many stretches per thread:
/// long stretches stream through the prefetchers with few hand-offs, and more than one lets a
/// thread held up by the machine leave its second to the others (docs/performance.md).
const STRETCHES_PER_THREAD: usize = 2;

/// Rows per part when `rows` rows stream once through `for_each_part`: `STRETCHES_PER_THREAD`
/// stretches a thread, but none shorter than `min_rows` (enough work to be worth a hand-off).
pub fn stretch_rows(rows: usize, min_rows: usize) -> usize {
    rows.div_ceil(STRETCHES_PER_THREAD * num_threads())
        .max(min_rows)
}

/// Below this much work (multiply-adds of the whole loop) `for_each_part` keeps a loop on the
/// calling thread: 2^17 multiply-adds take a few microseconds, not much more than handing parts
/// to another core and collecting them.
pub const TEAM_MIN_WORK: usize = 1 << 17;

/// `body(0) … body(parts − 1)`, each once, in any order, spread over the threads: rayon's when
/// called on a pool thread (inside `run`), else the low-latency team (`team`) when the setting
/// is more than one thread and the loop's `work` is worth a hand-off, else here in turn.
///
/// For calls of tens of microseconds — a decoding step's products, one sentence through
/// MiniLM — which the binding runs on the calling thread (`work` 0 to `run`), so that they
/// never wait for the pool to wake.
pub fn for_each_part(parts: usize, work: usize, body: &(dyn Fn(usize) + Sync)) {
    use rayon::prelude::*;
    if in_pool() {
        (0..parts).into_par_iter().for_each(body);
        return;
    }
    let n = num_threads();
    if n > 1 && parts > 1 && work >= TEAM_MIN_WORK {
        crate::runtime::team::run(n, parts, body);
    } else {
        (0..parts).for_each(body);
    }
}

/// How many threads a kernel of `work` splits over: the pool's on a pool thread (inside `run`),
/// else the thread setting when the work is worth the team's hand-off (`TEAM_MIN_WORK`), else 1
/// — the threads `for_each_part` would share its parts among.
pub fn split_threads(work: usize) -> usize {
    if in_pool() {
        rayon::current_num_threads()
    } else if work >= TEAM_MIN_WORK {
        num_threads()
    } else {
        1
    }
}

/// A mutable slice that the parts of a `for_each_part` loop write at disjoint places.
pub struct Disjoint<'a, T> {
    ptr: *mut T,
    len: usize,
    _slice: std::marker::PhantomData<&'a mut [T]>,
}

// SAFETY: parts only reach the slice through `part` and `block`, whose contract is that no two
// parts touch the same element; T moves between threads as &mut T would.
unsafe impl<T: Send> Sync for Disjoint<'_, T> {}
unsafe impl<T: Send> Send for Disjoint<'_, T> {}

impl<'a, T> Disjoint<'a, T> {
    pub fn new(slice: &'a mut [T]) -> Self {
        Disjoint {
            ptr: slice.as_mut_ptr(),
            len: slice.len(),
            _slice: std::marker::PhantomData,
        }
    }

    /// Elements `start .. start + len`.
    ///
    /// # Safety
    ///
    /// No other part may hold an overlapping range while this one is alive.
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn part(&self, start: usize, len: usize) -> &mut [T] {
        assert!(
            start <= self.len && len <= self.len - start,
            "part out of range"
        );
        // SAFETY: in bounds (checked above); exclusive by the caller's contract.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.add(start), len) }
    }

    /// The first element of the block of `rows` rows of `cols` elements at row stride `stride`
    /// that starts at element `start`: for parts that interleave (a band of columns of a
    /// row-major matrix each), which no slice can hold without overlapping the others'. Writing
    /// through the pointer is `unsafe`: no other part may touch the block's elements meanwhile.
    pub fn block(&self, start: usize, rows: usize, cols: usize, stride: usize) -> *mut T {
        let room = self.len.checked_sub(start);
        assert!(
            room.is_some_and(|room| rows_fit(room, rows, cols, stride)) || rows == 0 || cols == 0,
            "block out of range"
        );
        self.ptr.wrapping_add(start)
    }
}

/// Whether `rows` rows of `cols` elements, `stride` apart, fit in `len` elements without
/// overlapping (a single row may have any stride); no extent overflows `usize`. Nothing (`rows`
/// or `cols` 0) fits anywhere. `linalg::mat::Mat` and `Disjoint::block` check their extents by it.
pub fn rows_fit(len: usize, rows: usize, cols: usize, stride: usize) -> bool {
    rows == 0
        || cols == 0
        || ((rows == 1 || cols <= stride)
            && (rows - 1)
                .checked_mul(stride)
                .and_then(|start| start.checked_add(cols))
                .is_some_and(|end| end <= len))
}

/// True on a thread of the pool, where a kernel may split its work with rayon.
pub fn in_pool() -> bool {
    rayon::current_thread_index().is_some()
}

#[cfg(test)]
mod tests {
    use super::Disjoint;

    #[test]
    fn alone_blocks_read_one_thread_nest_and_stay_on_their_thread() {
        // Other tests change the setting meanwhile, so this one reads the blocks themselves.
        use super::{alone, is_alone, num_threads};
        alone(true);
        alone(true);
        assert!(is_alone() && num_threads() == 1);
        assert!(!std::thread::spawn(is_alone).join().unwrap());
        alone(false);
        assert!(is_alone(), "still inside the outer block");
        alone(false);
        alone(false); // one leave too many: ignored
        assert!(!is_alone());
        alone(true);
        assert!(
            is_alone(),
            "a leave too many does not cancel the next block"
        );
        alone(false);
    }

    #[test]
    fn a_block_must_lie_within_the_slice() {
        let mut v = vec![0.0f32; 3 * 10];
        let d = Disjoint::new(&mut v);
        // Columns 7 .. 10 of 3 rows of 10: the last element is the slice's last.
        assert_eq!(d.block(7, 3, 3, 10), d.block(7, 1, 1, 10));
        let _ = d.block(30, 0, 5, 10); // empty: nothing to check
        for (start, rows, cols, stride) in [(8, 3, 3, 10), (0, 4, 1, 10), (0, 2, 11, 10)] {
            let r = std::panic::catch_unwind(|| d.block(start, rows, cols, stride));
            assert!(
                r.is_err(),
                "block({start}, {rows}, {cols}, {stride}) was accepted"
            );
        }
        let r = std::panic::catch_unwind(|| d.block(0, 2, 1, usize::MAX));
        assert!(r.is_err(), "an overflowing stride was accepted");
    }
}
