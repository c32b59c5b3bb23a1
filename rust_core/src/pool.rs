//! Recycled memory for big outputs: a block freed by one call is handed to the next call that
//! asks for the same number of bytes, instead of going back to the OS.
//!
//! Why: a forward pass makes the same few big arrays layer after layer (MiniLM on 8 × 128 tokens:
//! ten outputs of 1.5 to 6 MB a layer). Through malloc, freed blocks that size go back to the OS
//! and the next one is faulted in again, 4 KiB at a time: 3,300 page faults a forward, and on
//! this project's virtual machine a fault costs about 1.8 µs (GELU of [8, 128, 1536]: 1.6 ms with
//! its 515 faults, 0.65 ms without). With malloc told to keep freed memory (glibc's trim and
//! mmap thresholds raised, which is a setting of the whole process, not a library's to make),
//! the forward took 5 to 16 % less in three alternating runs. This pool does the same for
//! rust_core's own outputs only.
//!
//! Blocks below `MIN_BYTES` are left to malloc, which reuses small freed blocks itself. Idle
//! blocks are kept up to `MAX_IDLE_BYTES` in all; beyond that the longest idle are freed.

use std::alloc::{alloc, dealloc, Layout};
use std::ptr::NonNull;
use std::sync::{Mutex, MutexGuard};

/// Outputs of at least this many bytes come from the pool (a [1, 128, 512] float32 array).
pub const MIN_BYTES: usize = 1 << 18;

/// At most this many idle bytes are kept (the freed outputs of about two MiniLM layers on 32 ×
/// 256 tokens).
pub const MAX_IDLE_BYTES: usize = 256 << 20;

/// Every block is aligned for any float SIMD load (and to a cache line).
const ALIGN: usize = 64;

/// A block of `bytes` bytes, aligned to `ALIGN`, owned by whoever holds this value: freed when it
/// is dropped, unless it is given back with `give`.
pub struct Block {
    ptr: NonNull<u8>,
    bytes: usize,
}

// SAFETY: a Block is the sole owner of its memory (like a Box<[u8]>), so it can move between
// threads; a shared &Block only reads its address and size.
unsafe impl Send for Block {}
unsafe impl Sync for Block {}

impl Block {
    /// A fresh block, or None when the allocator has no memory (or `bytes` is 0 or too big for a
    /// layout).
    fn new(bytes: usize) -> Option<Block> {
        let layout = Layout::from_size_align(bytes, ALIGN).ok()?;
        if bytes == 0 {
            return None;
        }
        // SAFETY: the layout has a non-zero size (checked above).
        let ptr = NonNull::new(unsafe { alloc(layout) })?;
        advise_huge_pages(ptr, bytes);
        Some(Block { ptr, bytes })
    }

    pub fn as_ptr(&self) -> *mut u8 {
        self.ptr.as_ptr()
    }

    pub fn bytes(&self) -> usize {
        self.bytes
    }
}

impl Drop for Block {
    fn drop(&mut self) {
        // SAFETY: allocated in `Block::new` with exactly this layout (which was valid then).
        unsafe {
            dealloc(
                self.ptr.as_ptr(),
                Layout::from_size_align_unchecked(self.bytes, ALIGN),
            )
        }
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

/// The idle blocks, oldest first, and their total size.
struct Idle {
    blocks: Vec<Block>,
    bytes: usize,
}

impl Idle {
    const fn new() -> Idle {
        Idle {
            blocks: Vec::new(),
            bytes: 0,
        }
    }

    /// The most recently given block of exactly `bytes` (its memory likely still in cache).
    fn take(&mut self, bytes: usize) -> Option<Block> {
        let i = self.blocks.iter().rposition(|b| b.bytes == bytes)?;
        self.bytes -= bytes;
        Some(self.blocks.remove(i))
    }

    /// Keep `block`, then free the oldest blocks until at most `cap` bytes are idle.
    fn give(&mut self, block: Block, cap: usize) {
        self.bytes += block.bytes;
        self.blocks.push(block);
        let excess = self.blocks.iter().scan(self.bytes, |left, b| {
            let over = *left > cap;
            *left -= b.bytes;
            Some(over)
        });
        let drop_n = excess.take_while(|&over| over).count();
        let freed: usize = self.blocks.drain(..drop_n).map(|b| b.bytes).sum();
        self.bytes -= freed;
    }
}

static IDLE: Mutex<Idle> = Mutex::new(Idle::new());

/// The idle blocks, locked. A poisoned lock only means a panic elsewhere while it was held; the
/// list is still valid (every change to it completes before the lock is released).
fn idle() -> MutexGuard<'static, Idle> {
    IDLE.lock().unwrap_or_else(|e| e.into_inner())
}

/// A block of `bytes` bytes (contents unspecified): an idle one of that size, else a new one;
/// None when `bytes` is below `MIN_BYTES` (malloc does better there) or memory ran out.
pub fn take(bytes: usize) -> Option<Block> {
    if bytes < MIN_BYTES {
        return None;
    }
    let reused = idle().take(bytes);
    reused.or_else(|| Block::new(bytes))
}

/// Hand a block back for the next `take` of its size.
pub fn give(block: Block) {
    idle().give(block, MAX_IDLE_BYTES);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_given_block_is_taken_again_by_its_size_only() {
        let mut idle = Idle::new();
        let a = Block::new(MIN_BYTES).unwrap();
        let a_ptr = a.as_ptr();
        idle.give(a, usize::MAX);
        assert!(
            idle.take(MIN_BYTES + 64).is_none(),
            "another size is not served"
        );
        let again = idle.take(MIN_BYTES).unwrap();
        assert_eq!(again.as_ptr(), a_ptr);
        assert_eq!(idle.bytes, 0);
        assert_eq!(again.as_ptr() as usize % ALIGN, 0);
    }

    #[test]
    fn the_newest_block_of_a_size_is_taken_first() {
        let mut idle = Idle::new();
        let (old, new) = (Block::new(1024).unwrap(), Block::new(1024).unwrap());
        let new_ptr = new.as_ptr();
        idle.give(old, usize::MAX);
        idle.give(new, usize::MAX);
        assert_eq!(idle.take(1024).unwrap().as_ptr(), new_ptr);
        assert_eq!(idle.bytes, 1024);
    }

    #[test]
    fn the_oldest_blocks_are_freed_beyond_the_cap() {
        let mut idle = Idle::new();
        for size in [1000, 2000, 3000, 4000] {
            idle.give(Block::new(size).unwrap(), 7500);
        }
        // 10,000 bytes given, at most 7,500 kept: 1000 and 2000 (the oldest) are freed.
        let sizes: Vec<usize> = idle.blocks.iter().map(|b| b.bytes).collect();
        assert_eq!(sizes, [3000, 4000]);
        assert_eq!(idle.bytes, 7000);
        idle.give(Block::new(9000).unwrap(), 7500); // alone bigger than the cap: not kept
        assert!(idle.blocks.is_empty() && idle.bytes == 0);
    }

    #[test]
    fn small_requests_are_left_to_malloc() {
        assert!(take(MIN_BYTES - 1).is_none());
        let block = take(MIN_BYTES).unwrap();
        assert_eq!(block.bytes(), MIN_BYTES);
        // Written end to end: the memory is really there.
        unsafe { std::ptr::write_bytes(block.as_ptr(), 0xAB, block.bytes()) };
        give(block);
    }
}
