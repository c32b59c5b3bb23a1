//! Recycled memory for big blocks: rust_core's global allocator keeps a freed block of
//! `MIN_BYTES` or more and hands it to the next allocation of the same size, instead of giving it
//! back to the OS.
//!
//! Why: a forward pass makes the same few big arrays layer after layer (MiniLM on 8 × 128 tokens:
//! ten outputs of 1.5 to 6 MB a layer), and every product asks for the same packing scratch (inside
//! the gemm crate). Through malloc, freed blocks that size go back to the OS and the next one is
//! faulted in again, 4 KiB at a time, and on a virtual machine those faults are a sizeable share of
//! a forward (docs/performance.md). glibc can be told to keep freed memory (its trim and mmap
//! thresholds), but that is a setting of the whole process, not a library's to make, so this
//! allocator keeps it for rust_core's own memory only: its results (`Block`, which `py` makes
//! arrays over) and every allocation its kernels and crates make.
//!
//! Blocks below `MIN_BYTES` are left to malloc, which reuses small freed blocks itself. Idle
//! blocks are kept up to `MAX_IDLE_BYTES` and `SLOTS` blocks in all; beyond that the longest idle
//! are freed.

use std::alloc::{GlobalAlloc, Layout, System};
use std::ptr::NonNull;
use std::sync::{Mutex, MutexGuard};

/// Allocations of at least this many bytes are recycled (a [1, 128, 512] float32 array).
pub const MIN_BYTES: usize = 1 << 18;

/// At most this many idle bytes are kept (the freed outputs of about two MiniLM layers on 32 ×
/// 256 tokens).
pub const MAX_IDLE_BYTES: usize = 256 << 20;

/// At most this many idle blocks are kept (a fixed table: the allocator cannot allocate its own
/// bookkeeping).
const SLOTS: usize = 64;

/// Results are aligned for any float SIMD load (and to a cache line).
const RESULT_ALIGN: usize = 64;

/// One idle block: its address, layout, and when it was freed (a counter).
#[derive(Clone, Copy)]
struct Slot {
    ptr: usize,
    size: usize,
    align: usize,
    freed: u64,
}

/// The idle blocks and their total size.
struct Idle {
    slots: [Option<Slot>; SLOTS],
    bytes: usize,
    clock: u64,
}

impl Idle {
    const fn new() -> Idle {
        Idle {
            slots: [None; SLOTS],
            bytes: 0,
            clock: 0,
        }
    }

    /// The most recently freed block of exactly this size and alignment (its memory likely still
    /// in cache), taken out of the table.
    fn take(&mut self, size: usize, align: usize) -> Option<usize> {
        let found = self
            .slots
            .iter_mut()
            .filter(|s| s.is_some_and(|s| s.size == size && s.align == align))
            .max_by_key(|s| s.map_or(0, |s| s.freed))?;
        let slot = found.take()?;
        self.bytes -= slot.size;
        Some(slot.ptr)
    }

    /// Keep a freed block; returns the blocks to free now (the longest idle ones beyond the
    /// limits, possibly this one), at most `SLOTS + 1`.
    fn give(&mut self, ptr: usize, size: usize, align: usize, cap: usize) -> Evicted {
        let mut evicted = Evicted::new();
        if size > cap {
            evicted.push(Slot {
                ptr,
                size,
                align,
                freed: 0,
            });
            return evicted;
        }
        while self.bytes + size > cap || self.slots.iter().all(Option::is_some) {
            let oldest = self
                .slots
                .iter_mut()
                .filter(|s| s.is_some())
                .min_by_key(|s| s.map_or(u64::MAX, |s| s.freed));
            let Some(slot) = oldest.and_then(Option::take) else {
                break;
            };
            self.bytes -= slot.size;
            evicted.push(slot);
        }
        self.clock += 1;
        let free = self.slots.iter_mut().find(|s| s.is_none());
        if let Some(free) = free {
            *free = Some(Slot {
                ptr,
                size,
                align,
                freed: self.clock,
            });
            self.bytes += size;
        }
        evicted
    }
}

/// Blocks to free after the table's lock is released.
struct Evicted {
    slots: [Option<Slot>; SLOTS + 1],
    len: usize,
}

impl Evicted {
    const fn new() -> Evicted {
        Evicted {
            slots: [None; SLOTS + 1],
            len: 0,
        }
    }

    fn push(&mut self, slot: Slot) {
        self.slots[self.len] = Some(slot);
        self.len += 1;
    }
}

static IDLE: Mutex<Idle> = Mutex::new(Idle::new());

/// The idle blocks, locked, or None when another thread keeps holding them: the caller then goes
/// to the system directly (always valid: every block in the table came from `System` with the
/// layout it is asked or freed with). The lock is held for a few instructions, so a few tries
/// find it free; never waiting means a child forked while another thread held the lock, which
/// would never see it released, still allocates. A poisoned lock only means a panic elsewhere
/// while it was held; the table is still valid (every change to it completes first).
fn idle() -> Option<MutexGuard<'static, Idle>> {
    for _ in 0..TRIES {
        match IDLE.try_lock() {
            Ok(guard) => return Some(guard),
            Err(std::sync::TryLockError::Poisoned(e)) => return Some(e.into_inner()),
            Err(std::sync::TryLockError::WouldBlock) => std::hint::spin_loop(),
        }
    }
    None
}

/// How many times `idle` tries the lock.
const TRIES: usize = 64;

/// rust_core's global allocator: the system's, with big blocks recycled (see the module).
pub struct Recycling;

/// An idle block of exactly this layout, if the table has one (and is free to look at).
fn reuse(layout: Layout) -> Option<*mut u8> {
    let ptr = idle()?.take(layout.size(), layout.align())?;
    Some(ptr as *mut u8)
}

// SAFETY: every block comes from `System` with the layout it is freed with (a recycled block is
// only handed to a request of exactly its size and alignment), so any block may also go back to
// `System` directly; the table is behind a mutex, which on the platforms std supports does not
// allocate, and is only ever tried, never waited for.
unsafe impl GlobalAlloc for Recycling {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.size() < MIN_BYTES {
            // SAFETY: forwarded as given.
            return unsafe { System.alloc(layout) };
        }
        if let Some(ptr) = reuse(layout) {
            return ptr;
        }
        // SAFETY: a non-zero size (at least MIN_BYTES).
        let ptr = unsafe { System.alloc(layout) };
        if let Some(p) = NonNull::new(ptr) {
            advise_huge_pages(p, layout.size());
        }
        ptr
    }

    /// A recycled block zeroed here; a new one from the system's calloc, whose fresh pages are
    /// zero without being written.
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.size() >= MIN_BYTES {
            if let Some(ptr) = reuse(layout) {
                // SAFETY: the block holds layout.size() bytes and is ours alone.
                unsafe { std::ptr::write_bytes(ptr, 0, layout.size()) };
                return ptr;
            }
        }
        // SAFETY: forwarded as given (a non-zero size, by GlobalAlloc's contract).
        unsafe { System.alloc_zeroed(layout) }
    }

    /// The system's own realloc (which can grow in place, or remap a big block): valid for any
    /// block, since every one came from `System` with the layout given here.
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded as given; `ptr` was allocated by `System` with `layout`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if layout.size() >= MIN_BYTES {
            let Some(mut idle) = idle() else {
                // SAFETY: `ptr` came from `System` with this layout.
                return unsafe { System.dealloc(ptr, layout) };
            };
            let evicted = idle.give(ptr as usize, layout.size(), layout.align(), MAX_IDLE_BYTES);
            drop(idle); // the system's free does not need the table
            for slot in evicted.slots.iter().flatten() {
                // SAFETY: each evicted block came from `System` with this size and alignment.
                unsafe {
                    System.dealloc(
                        slot.ptr as *mut u8,
                        Layout::from_size_align_unchecked(slot.size, slot.align),
                    )
                }
            }
            return;
        }
        // SAFETY: forwarded as given.
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// Ask Linux for transparent huge pages over a big block, as NumPy does for arrays of 4 MiB and
/// more: one fault then maps 2 MiB. Only a hint: a refusal changes nothing.
#[cfg(target_os = "linux")]
fn advise_huge_pages(ptr: NonNull<u8>, bytes: usize) {
    const HUGE: usize = 2 << 20;
    if bytes < 2 * HUGE {
        return;
    }
    let start = (ptr.as_ptr() as usize).next_multiple_of(HUGE);
    let end = (ptr.as_ptr() as usize + bytes) / HUGE * HUGE;
    if end > start {
        // SAFETY: [start, end) lies inside the block just allocated; madvise only changes how
        // the kernel backs those pages, not their contents or ownership.
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_ptr: NonNull<u8>, _bytes: usize) {}

/// The memory of one big result: `bytes` bytes aligned to 64, freed (that is, recycled) when
/// dropped.
pub struct Block {
    ptr: NonNull<u8>,
    bytes: usize,
}

// SAFETY: a Block is the sole owner of its memory (like a Box<[u8]>), so it can move between
// threads; a shared &Block only reads its address and size.
unsafe impl Send for Block {}
unsafe impl Sync for Block {}

impl Block {
    /// A block for a result of `bytes` bytes, or None when that is below `MIN_BYTES` (NumPy's
    /// own allocation does as well there) or memory ran out.
    pub fn new(bytes: usize) -> Option<Block> {
        if bytes < MIN_BYTES {
            return None;
        }
        let layout = Layout::from_size_align(bytes, RESULT_ALIGN).ok()?;
        // SAFETY: the layout has a non-zero size.
        let ptr = NonNull::new(unsafe { std::alloc::alloc(layout) })?;
        Some(Block { ptr, bytes })
    }

    pub fn as_ptr(&self) -> *mut u8 {
        self.ptr.as_ptr()
    }
}

impl Drop for Block {
    fn drop(&mut self) {
        // SAFETY: allocated in `Block::new` with exactly this layout (which was valid then).
        unsafe {
            std::alloc::dealloc(
                self.ptr.as_ptr(),
                Layout::from_size_align_unchecked(self.bytes, RESULT_ALIGN),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_freed_block_is_taken_again_by_its_size_and_alignment_only() {
        let mut idle = Idle::new();
        assert_eq!(idle.give(0x1000, 4096, 64, usize::MAX).len, 0);
        assert_eq!(idle.take(4096, 8), None, "another alignment is not served");
        assert_eq!(idle.take(4160, 64), None, "another size is not served");
        assert_eq!(idle.take(4096, 64), Some(0x1000));
        assert_eq!(idle.bytes, 0);
        assert_eq!(idle.take(4096, 64), None, "taken once");
    }

    #[test]
    fn the_newest_block_of_a_size_is_taken_first() {
        let mut idle = Idle::new();
        idle.give(0x1000, 1024, 8, usize::MAX);
        idle.give(0x2000, 1024, 8, usize::MAX);
        assert_eq!(idle.take(1024, 8), Some(0x2000));
        assert_eq!(idle.bytes, 1024);
    }

    #[test]
    fn the_oldest_blocks_are_freed_beyond_the_limits() {
        let mut idle = Idle::new();
        let freed =
            |e: Evicted| -> Vec<usize> { e.slots.iter().flatten().map(|s| s.ptr).collect() };
        for (i, size) in [1000, 2000, 3000].into_iter().enumerate() {
            assert!(freed(idle.give(i, size, 8, 7500)).is_empty());
        }
        // 10,000 bytes given, at most 7,500 kept: 1000 and 2000 (the oldest) go.
        assert_eq!(freed(idle.give(3, 4000, 8, 7500)), [0, 1]);
        assert_eq!(idle.bytes, 7000);
        // Alone bigger than the cap: freed at once, the others kept.
        assert_eq!(freed(idle.give(4, 9000, 8, 7500)), [4]);
        assert_eq!(idle.bytes, 7000);
        // A full table frees its oldest block to make room.
        let mut full = Idle::new();
        for i in 0..SLOTS {
            full.give(i, 10, 8, usize::MAX);
        }
        assert_eq!(freed(full.give(SLOTS, 10, 8, usize::MAX)), [0]);
        assert_eq!(full.bytes, 10 * SLOTS);
    }

    #[test]
    fn a_busy_table_is_passed_by_not_waited_for() {
        // As in a child forked while another thread held the lock: allocating and freeing big
        // blocks still works (through the system), rather than waiting forever.
        let held = IDLE.lock().unwrap_or_else(|e| e.into_inner());
        let ones = vec![1u8; 2 * MIN_BYTES];
        assert_eq!(ones[MIN_BYTES], 1);
        drop(ones);
        let zeros = vec![0u8; 2 * MIN_BYTES];
        assert!(zeros.iter().all(|&b| b == 0));
        drop(zeros);
        drop(held);
    }

    #[test]
    fn a_recycled_block_asked_for_zeroed_is_zeroed() {
        for _ in 0..3 {
            let dirty = vec![0xFFu8; 3 * MIN_BYTES];
            drop(dirty); // into the table
            let clean = vec![0u8; 3 * MIN_BYTES]; // alloc_zeroed: that block, zeroed
            assert!(clean.iter().all(|&b| b == 0));
        }
    }

    #[test]
    fn small_results_are_left_to_numpy() {
        assert!(Block::new(MIN_BYTES - 1).is_none());
        let block = Block::new(MIN_BYTES).unwrap();
        assert_eq!(block.bytes, MIN_BYTES);
        assert_eq!(block.as_ptr() as usize % RESULT_ALIGN, 0);
        // Written end to end: the memory is really there.
        unsafe { std::ptr::write_bytes(block.as_ptr(), 0xAB, block.bytes) };
    }
}
