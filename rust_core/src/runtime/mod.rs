//! Where the kernels run and what memory they get: rayon's pool (`threads`), the low-latency
//! team for calls of microseconds (`team`), and the allocator that recycles big blocks (`pool`).
//! Every layer above may use it; it uses nothing of the crate but `error`.

pub mod pool;
pub mod team;
pub mod threads;
