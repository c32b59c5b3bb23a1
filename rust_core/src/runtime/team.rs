//! A team of threads for short parallel loops: the calling thread and `n − 1` helpers that spin
//! for a moment after each loop, so that the next one starts on all cores at once.
//!
//! Rayon's pool (`threads`) suits calls of milliseconds. For the calls of a generated token — a few
//! hundred products of tens of microseconds each — its hand-offs cost more than they save: the
//! calling thread sleeps until the pool is done, and waking a sleeping thread costs as much as such
//! a product (docs/performance.md). Here the caller never sleeps: it publishes the loop, takes
//! parts of it itself, and spins until the parts the helpers took are done; helpers that were
//! already spinning join at once, and helpers that were parked simply take no part (the caller does
//! them), so a loop is never slower than running it alone by more than its hand-off.
//!
//! Parts are claimed one at a time, so a helper that the OS has descheduled delays nothing it has
//! not claimed: the caller from the front, the helpers from the back. Kernels number their parts
//! by rows, so in a chain of kernels over the same rows (a product, its activation, the next
//! product) each thread mostly meets the rows it wrote last, still in its own core's cache; with
//! parts handed out in one order a thread would read about half its rows from the other core's.
//! A loop started while another runs (a second Python thread, or a loop inside a part) runs on
//! its calling thread alone. `threads::run` parks the helpers before it hands a big call to
//! rayon's pool, so they do not spin on the pool's cores.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a helper spins after its last part before it parks. Longer than the gap between two
/// products of a decoding step (a few µs of Python), short enough to cost nothing noticeable
/// when the app goes idle.
const SPIN: Duration = Duration::from_micros(300);

/// One loop: `parts` calls of `body(i)`. The caller claims parts from the front (`front`), the
/// helpers from the back (`back`), so that consecutive loops split alike over rows give each
/// thread the same rows again, still in its cache; `claimed` lets at most `parts` claims through,
/// so the two ends never take the same part.
struct Job {
    body: *const (dyn Fn(usize) + Sync),
    parts: usize,
    claimed: AtomicUsize,
    front: AtomicUsize,
    back: AtomicUsize,
    done: AtomicUsize,
    panicked: AtomicBool,
}

// SAFETY: `body` points to a `Sync` closure that outlives every use of the job (see `run`).
unsafe impl Send for Job {}
unsafe impl Sync for Job {}

impl Job {
    /// Claim and run parts until none are left, from the front (the caller) or the back (the
    /// helpers); returns how many this thread ran.
    fn work(&self, from_front: bool) -> usize {
        let mut ran = 0;
        loop {
            if self.claimed.fetch_add(1, Ordering::Relaxed) >= self.parts {
                return ran;
            }
            // At most `parts` claims get here, f from the front and b from the back with
            // f + b ≤ parts, so the front's 0 .. f and the back's parts − b .. parts are disjoint.
            let i = if from_front {
                self.front.fetch_add(1, Ordering::Relaxed)
            } else {
                self.parts - 1 - self.back.fetch_add(1, Ordering::Relaxed)
            };
            ran += 1;
            // SAFETY: the closure lives until `run` has seen every part done and every helper
            // leave (`active` back to 0).
            let body = unsafe { &*self.body };
            if catch_unwind(AssertUnwindSafe(|| body(i))).is_err() {
                self.panicked.store(true, Ordering::Relaxed);
            }
            self.done.fetch_add(1, Ordering::Release);
        }
    }
}

/// What the helpers watch.
struct Shared {
    /// Odd while a job is open; each open and each close adds one.
    epoch: AtomicUsize,
    /// The open job (valid while `epoch` is odd and the helper is counted in `active`).
    job: std::sync::atomic::AtomicPtr<Job>,
    /// Helpers currently inside a job (the caller waits for 0 before the job goes away).
    active: AtomicUsize,
    /// Helpers parked on `wake`.
    parked: AtomicUsize,
    /// The CPU the caller of the open job runs on (`usize::MAX`: unknown), which helpers keep
    /// off (`avoid_cpu`).
    caller_cpu: AtomicUsize,
    /// Set to stop spinning and park now (a big call is about to use every core), or to exit.
    park_now: AtomicBool,
    exit: AtomicBool,
    lock: Mutex<()>,
    wake: Condvar,
}

struct Team {
    shared: Arc<Shared>,
    helpers: Vec<JoinHandle<()>>,
    /// One loop at a time; a caller that finds it taken (a second Python thread, or a loop started
    /// inside a part) runs alone.
    busy: AtomicBool,
    /// Until when (µs of `clock_us`) loops run on their calling thread alone, after a helper was
    /// found descheduled (`helper_was_slow`); 0: no back-off yet.
    backoff_until_us: AtomicU64,
    /// The length of the last back-off, µs (`next_backoff_us`).
    backoff_len_us: AtomicU64,
}

/// The time base of `Team::backoff_until_us`.
fn clock_us() -> u64 {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_micros() as u64
}

/// The first back-off after a slow helper, µs: short, as one slow loop may be a passing burst
/// (NumPy's threads spinning after its last product).
const BACKOFF_MIN_US: u64 = 10_000;
/// The longest back-off, µs: a core held by another process for good costs one slow loop (about
/// a time slice, a few ms) in this long, and the team is back this soon after it ends.
const BACKOFF_MAX_US: u64 = 200_000;

/// The length of a back-off that starts at `now`, the last one having ended at `prev_until` after
/// `prev_len` µs: twice the last when the helper is found slow again within 10 ms of its end (the
/// other process is still there), else `BACKOFF_MIN_US`.
fn next_backoff_us(now: u64, prev_until: u64, prev_len: u64) -> u64 {
    if prev_until != 0 && now <= prev_until + 10_000 {
        (2 * prev_len).clamp(BACKOFF_MIN_US, BACKOFF_MAX_US)
    } else {
        BACKOFF_MIN_US
    }
}

/// Whether the caller, having run `own_parts` parts in `own` itself, then waited `waited` for the
/// helpers' last parts long enough to mean a helper lost its core to another process mid-part (the
/// OS gives the core back only after a time slice, milliseconds): longer than four of its own
/// parts and than 250 µs. A helper that merely started late finishes within about one part.
fn helper_was_slow(own_parts: usize, own: Duration, waited: Duration) -> bool {
    if own_parts == 0 {
        return false; // the helpers took every part: nothing to compare with
    }
    let per_part = own / own_parts as u32;
    waited > Duration::from_micros(250) && waited > 4 * per_part
}

impl Team {
    fn new(threads: usize) -> Team {
        let shared = Arc::new(Shared {
            epoch: AtomicUsize::new(0),
            job: std::sync::atomic::AtomicPtr::new(std::ptr::null_mut()),
            active: AtomicUsize::new(0),
            parked: AtomicUsize::new(0),
            caller_cpu: AtomicUsize::new(usize::MAX),
            park_now: AtomicBool::new(false),
            exit: AtomicBool::new(false),
            lock: Mutex::new(()),
            wake: Condvar::new(),
        });
        let helpers = (1..threads)
            .filter_map(|i| {
                let shared = Arc::clone(&shared);
                std::thread::Builder::new()
                    .name(format!("rust_core-team-{i}"))
                    .spawn(move || helper(&shared))
                    .ok() // a helper the OS refuses is one fewer: the caller does its parts
            })
            .collect();
        Team {
            shared,
            helpers,
            busy: AtomicBool::new(false),
            backoff_until_us: AtomicU64::new(0),
            backoff_len_us: AtomicU64::new(0),
        }
    }

    fn size(&self) -> usize {
        self.helpers.len() + 1
    }
}

impl Drop for Team {
    fn drop(&mut self) {
        self.shared.exit.store(true, Ordering::SeqCst);
        {
            let _guard = lock(&self.shared.lock);
            self.shared.wake.notify_all();
        }
        for h in self.helpers.drain(..) {
            let _ = h.join();
        }
    }
}

fn lock(m: &Mutex<()>) -> MutexGuard<'_, ()> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn helper(shared: &Shared) {
    let mut seen = 0; // the last epoch this helper took part in (0: none; jobs are odd)
    let mut avoided = usize::MAX; // the CPU this helper's affinity leaves out
    while let Some(epoch) = next_job(shared, seen) {
        seen = epoch;
        let caller = shared.caller_cpu.load(Ordering::Relaxed);
        if caller != avoided {
            avoid_cpu(caller);
            avoided = caller;
        }
        // Enter, then check the job is still the one of `epoch`: `run` closes it before waiting
        // for `active` to drain, so either it sees us counted or we see the close (both SeqCst).
        shared.active.fetch_add(1, Ordering::SeqCst);
        if shared.epoch.load(Ordering::SeqCst) == epoch {
            let job = shared.job.load(Ordering::SeqCst);
            // SAFETY: the job of an open epoch stays alive while `active` counts this helper.
            unsafe { &*job }.work(false);
        }
        shared.active.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The next open epoch other than `seen`, or None when the team exits: spin for `SPIN` (or
/// until asked to park), then park until `run` opens a job, then spin again.
fn next_job(shared: &Shared, seen: usize) -> Option<usize> {
    let mut start = Instant::now();
    let mut spins = 0u32;
    loop {
        if shared.exit.load(Ordering::Relaxed) {
            return None;
        }
        let epoch = shared.epoch.load(Ordering::Acquire);
        if epoch != seen && epoch % 2 == 1 {
            return Some(epoch);
        }
        spins = spins.wrapping_add(1);
        if shared.park_now.load(Ordering::Relaxed)
            || (spins.is_multiple_of(64) && start.elapsed() > SPIN)
        {
            let mut guard = lock(&shared.lock);
            shared.parked.fetch_add(1, Ordering::SeqCst);
            // `run` bumps the epoch, then notifies under this lock if it sees anyone parked:
            // counted before this check, so the notification cannot be missed.
            while shared.epoch.load(Ordering::SeqCst) == epoch
                && !shared.exit.load(Ordering::SeqCst)
            {
                guard = shared.wake.wait(guard).unwrap_or_else(|e| e.into_inner());
            }
            shared.parked.fetch_sub(1, Ordering::SeqCst);
            (start, spins) = (Instant::now(), 0);
            continue;
        }
        std::hint::spin_loop();
    }
}

/// Keep this thread off `cpu` (the caller's), when another CPU is allowed: Linux wakes a thread
/// on the CPU of the thread that woke it and moves it away only milliseconds later, and until
/// then a helper and its caller would share one core, which makes a short call after an idle
/// pause slower on two threads than on one (docs/performance.md).
#[cfg(target_os = "linux")]
fn avoid_cpu(cpu: usize) {
    let process = PROCESS_CPUS.get_or_init(|| {
        // SAFETY: `cpu_set_t` is plain bits, valid when zeroed; sched_getaffinity writes at most
        // `size` bytes into it.
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            let size = std::mem::size_of::<libc::cpu_set_t>();
            if libc::sched_getaffinity(0, size, &mut set) != 0 {
                return Vec::new();
            }
            (0..libc::CPU_SETSIZE as usize)
                .filter(|&c| libc::CPU_ISSET(c, &set))
                .collect()
        }
    });
    if process.len() < 2 {
        return; // nowhere else to go
    }
    // SAFETY: as above; sched_setaffinity only reads the set, and pid 0 is this thread. A
    // failure leaves the thread where it was, which is still correct.
    unsafe {
        let mut others: libc::cpu_set_t = std::mem::zeroed();
        for &c in process.iter().filter(|&&c| c != cpu) {
            libc::CPU_SET(c, &mut others);
        }
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &others);
    }
}

#[cfg(not(target_os = "linux"))]
fn avoid_cpu(_cpu: usize) {}

/// The CPUs this process may use, read when the first helper first needs them (a helper is
/// created with the process's mask and only ever narrows its own).
#[cfg(target_os = "linux")]
static PROCESS_CPUS: std::sync::OnceLock<Vec<usize>> = std::sync::OnceLock::new();

/// The CPU the calling thread runs on now, or `usize::MAX` where that cannot be asked.
fn current_cpu() -> usize {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: sched_getcpu has no preconditions; it returns −1 on failure.
        let cpu = unsafe { libc::sched_getcpu() };
        if cpu >= 0 {
            return cpu as usize;
        }
    }
    usize::MAX
}

static TEAM: Mutex<Option<Arc<Team>>> = Mutex::new(None);

/// The team for `threads` threads (built or rebuilt on first use at that size); none for one.
fn team(threads: usize) -> Option<Arc<Team>> {
    if threads <= 1 {
        return None;
    }
    let mut slot = TEAM.lock().unwrap_or_else(|e| e.into_inner());
    match &*slot {
        Some(t) if t.size() == threads => Some(Arc::clone(t)),
        _ => {
            let t = Arc::new(Team::new(threads));
            *slot = Some(Arc::clone(&t)); // the old team's helpers exit when its last user ends
            Some(t)
        }
    }
}

/// Ask spinning helpers to park now (a call that is about to occupy every core through rayon).
pub fn park() {
    if let Some(t) = TEAM.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
        t.shared.park_now.store(true, Ordering::Relaxed);
    }
}

/// Run `body(0) … body(parts − 1)` on up to `threads` threads (the calling one included), in any
/// order, each exactly once; returns when all are done. A panic in a part is re-raised here.
pub fn run(threads: usize, parts: usize, body: &(dyn Fn(usize) + Sync)) {
    let inline = || {
        for i in 0..parts {
            body(i)
        }
    };
    if parts <= 1 {
        return inline();
    }
    let Some(team) = team(threads) else {
        return inline();
    };
    run_on(&team, parts, body)
}

/// `run` on the given team (of at least two threads).
fn run_on(team: &Team, parts: usize, body: &(dyn Fn(usize) + Sync)) {
    let inline = || {
        for i in 0..parts {
            body(i)
        }
    };
    if clock_us() < team.backoff_until_us.load(Ordering::Relaxed) {
        return inline();
    }
    if team
        .busy
        .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
        .is_err()
    {
        // Another loop is running (another Python thread's, or this one's from inside a part):
        // this one stays on its own thread.
        return inline();
    }
    let shared = &team.shared;
    // SAFETY (lifetime): `body` is erased to a raw pointer for the helpers; every helper leaves
    // the job (`active` = 0) before this function returns, so none reads it afterwards.
    let body_ptr: *const (dyn Fn(usize) + Sync + '_) = body;
    let job = Job {
        body: unsafe {
            std::mem::transmute::<*const (dyn Fn(usize) + Sync + '_), *const (dyn Fn(usize) + Sync)>(
                body_ptr,
            )
        },
        parts,
        claimed: AtomicUsize::new(0),
        front: AtomicUsize::new(0),
        back: AtomicUsize::new(0),
        done: AtomicUsize::new(0),
        panicked: AtomicBool::new(false),
    };
    shared.park_now.store(false, Ordering::Relaxed);
    shared.caller_cpu.store(current_cpu(), Ordering::Relaxed);
    shared
        .job
        .store(&job as *const Job as *mut Job, Ordering::SeqCst);
    shared.epoch.fetch_add(1, Ordering::SeqCst); // open (odd)
    if shared.parked.load(Ordering::SeqCst) > 0 {
        let _guard = lock(&shared.lock);
        shared.wake.notify_all();
    }
    let started = Instant::now();
    let own_parts = job.work(true);
    let own = started.elapsed();
    while job.done.load(Ordering::Acquire) < parts {
        std::hint::spin_loop();
    }
    if helper_was_slow(own_parts, own, started.elapsed() - own) {
        let now = clock_us();
        let len = next_backoff_us(
            now,
            team.backoff_until_us.load(Ordering::Relaxed),
            team.backoff_len_us.load(Ordering::Relaxed),
        );
        team.backoff_len_us.store(len, Ordering::Relaxed);
        team.backoff_until_us.store(now + len, Ordering::Relaxed);
    }
    shared.epoch.fetch_add(1, Ordering::SeqCst); // close (even)
    while shared.active.load(Ordering::SeqCst) > 0 {
        std::hint::spin_loop();
    }
    shared.job.store(std::ptr::null_mut(), Ordering::SeqCst);
    team.busy.store(false, Ordering::Release);
    if job.panicked.load(Ordering::Relaxed) {
        resume_unwind(Box::new("a part of a team loop panicked"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_caller_takes_parts_from_the_front_and_the_helpers_from_the_back() {
        let caller = std::thread::current().id();
        let mut helped = 0; // loops in which a helper took parts: else nothing was shown
        for _ in 0..200 {
            let by_caller: Vec<AtomicBool> = (0..64).map(|_| AtomicBool::new(false)).collect();
            run(2, 64, &|i| {
                if std::thread::current().id() == caller {
                    by_caller[i].store(true, Ordering::Relaxed);
                }
                std::thread::sleep(Duration::from_micros(20)); // time for the helper to join
            });
            let mine: Vec<bool> = by_caller
                .iter()
                .map(|b| b.load(Ordering::Relaxed))
                .collect();
            let f = mine.iter().take_while(|&&m| m).count();
            assert!(
                mine[f..].iter().all(|&m| !m),
                "the caller's parts are not a prefix: {mine:?}"
            );
            helped += usize::from(f < 64);
            if helped >= 5 {
                break;
            }
        }
        assert!(helped > 0, "no helper ever took a part");
    }

    #[test]
    fn every_part_runs_once_for_any_team_size() {
        for threads in [1, 2, 3, 8] {
            for parts in [0, 1, 2, 5, 64, 1000] {
                let hits: Vec<AtomicU64> = (0..parts).map(|_| AtomicU64::new(0)).collect();
                run(threads, parts, &|i| {
                    hits[i].fetch_add(1, Ordering::Relaxed);
                });
                assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 1));
            }
        }
    }

    #[test]
    fn nested_and_concurrent_loops_run_inline() {
        let total = AtomicU64::new(0);
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for _ in 0..200 {
                        run(2, 4, &|_| {
                            run(2, 3, &|_| {
                                total.fetch_add(1, Ordering::Relaxed);
                            })
                        });
                    }
                });
            }
        });
        assert_eq!(total.load(Ordering::Relaxed), 4 * 200 * 4 * 3);
    }

    #[test]
    fn a_wait_of_many_own_parts_means_a_slow_helper() {
        let us = Duration::from_micros;
        // Parts of 20 µs: waiting 1 ms is a helper that lost its core; 60 µs is one late part.
        assert!(helper_was_slow(5, us(100), us(1000)));
        assert!(!helper_was_slow(5, us(100), us(60)));
        // Parts of 1 ms: waiting 1.5 ms is a helper finishing its last part.
        assert!(!helper_was_slow(2, us(2000), us(1500)));
        assert!(helper_was_slow(2, us(2000), us(9000)));
        // Never below 250 µs, and never when the helpers ran every part.
        assert!(!helper_was_slow(10, us(10), us(200)));
        assert!(!helper_was_slow(0, us(0), us(50_000)));
    }

    #[test]
    fn back_offs_double_while_the_helper_stays_slow_and_start_short_again() {
        assert_eq!(next_backoff_us(5_000_000, 0, 0), BACKOFF_MIN_US); // the first
                                                                      // Slow again right after the last one ended: twice as long, up to the cap.
        assert_eq!(next_backoff_us(1_003_000, 1_000_000, 10_000), 20_000);
        assert_eq!(
            next_backoff_us(1_003_000, 1_000_000, 160_000),
            BACKOFF_MAX_US
        );
        assert_eq!(
            next_backoff_us(1_003_000, 1_000_000, BACKOFF_MAX_US),
            BACKOFF_MAX_US
        );
        // A second later the other process has gone: short again.
        assert_eq!(
            next_backoff_us(2_000_000, 1_000_000, BACKOFF_MAX_US),
            BACKOFF_MIN_US
        );
    }

    #[test]
    fn during_a_back_off_every_part_runs_on_the_calling_thread() {
        // A team of its own: the shared one is rebuilt by other tests running at the same time.
        let t = Team::new(2);
        let caller = std::thread::current().id();
        let elsewhere = AtomicU64::new(0);
        let body = |_| {
            if std::thread::current().id() != caller {
                elsewhere.fetch_add(1, Ordering::Relaxed);
            }
        };
        let until = clock_us() + 60_000_000; // a minute: certainly still on during the loop
        t.backoff_until_us.store(until, Ordering::Relaxed);
        for _ in 0..50 {
            run_on(&t, 64, &body);
        }
        assert_eq!(elsewhere.load(Ordering::Relaxed), 0);
        // The control: without the back-off the helper takes parts of 20 µs, given time.
        t.backoff_until_us.store(0, Ordering::Relaxed);
        let deadline = Instant::now() + Duration::from_secs(10);
        while elsewhere.load(Ordering::Relaxed) == 0 && Instant::now() < deadline {
            run_on(&t, 64, &|i| {
                let start = Instant::now();
                while start.elapsed() < Duration::from_micros(20) {
                    std::hint::spin_loop();
                }
                body(i)
            });
        }
        assert!(
            elsewhere.load(Ordering::Relaxed) > 0,
            "the helper never took a part"
        );
    }

    #[test]
    fn a_panic_in_a_part_reaches_the_caller_and_the_team_goes_on() {
        let caught = catch_unwind(|| run(2, 8, &|i| assert_ne!(i, 5, "part 5 fails")));
        assert!(caught.is_err());
        let count = AtomicU64::new(0);
        run(2, 8, &|_| {
            count.fetch_add(1, Ordering::Relaxed);
        });
        assert_eq!(count.load(Ordering::Relaxed), 8);
    }
}
