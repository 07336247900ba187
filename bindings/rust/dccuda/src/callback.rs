//! Host functions enqueued on streams (dc_stream_add_callback).
//!
//! The C call takes a function pointer and a `void*`. The pointer handed to the library is
//! not an address but a number: a key into a table of closures. The trampoline looks the key
//! up each time it runs. So a closure that runs more often than expected (a callback that was
//! captured into a graph and is replayed) or after its owner is gone finds no entry and does
//! nothing, instead of touching freed memory; and one that never runs (its stream's work was
//! discarded) is only a table entry, freed with its owner where there is one.

use std::collections::HashMap;
use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

enum Entry {
    /// Runs once, then the entry is removed.
    Once(Box<dyn FnOnce() + Send>),
    /// Runs every time (a host node of a graph); removed when its last owner lets go.
    Repeat(Arc<dyn Fn() + Send + Sync>, usize),
}

fn table() -> &'static Mutex<HashMap<usize, Entry>> {
    static TABLE: OnceLock<Mutex<HashMap<usize, Entry>>> = OnceLock::new();
    TABLE.get_or_init(Default::default)
}

fn lock() -> std::sync::MutexGuard<'static, HashMap<usize, Entry>> {
    // A panic while the lock is held cannot leave the map inconsistent (plain inserts and
    // removes), so a poisoned lock is still usable.
    table().lock().unwrap_or_else(|p| p.into_inner())
}

fn next_key() -> usize {
    static NEXT: AtomicUsize = AtomicUsize::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

pub(crate) fn add_once(f: Box<dyn FnOnce() + Send>) -> usize {
    let key = next_key();
    lock().insert(key, Entry::Once(f));
    key
}

pub(crate) fn add_repeat(f: Arc<dyn Fn() + Send + Sync>) -> usize {
    let key = next_key();
    lock().insert(key, Entry::Repeat(f, 1));
    key
}

/// One more owner of a repeating entry (a graph updated from another keeps its callbacks).
pub(crate) fn retain(key: usize) {
    if let Some(Entry::Repeat(_, owners)) = lock().get_mut(&key) {
        *owners += 1;
    }
}

/// Drops an owner's hold on an entry (or a once-entry that was never enqueued).
pub(crate) fn release(key: usize) {
    let mut t = lock();
    let remove = match t.get_mut(&key) {
        Some(Entry::Repeat(_, owners)) => {
            *owners -= 1;
            *owners == 0
        }
        Some(Entry::Once(_)) => true,
        None => false,
    };
    if remove {
        // Dropped after the lock is released: a closure's Drop may take time or call back.
        let entry = t.remove(&key);
        drop(t);
        drop(entry);
    }
}

/// The C side: `user_data` is a key.
pub(crate) unsafe extern "C" fn trampoline(user_data: *mut c_void) {
    let key = user_data as usize;
    enum Run {
        Once(Box<dyn FnOnce() + Send>),
        Repeat(Arc<dyn Fn() + Send + Sync>),
    }
    let run = {
        let mut t = lock();
        match t.get(&key) {
            Some(Entry::Once(_)) => match t.remove(&key) {
                Some(Entry::Once(f)) => Some(Run::Once(f)),
                _ => None,
            },
            Some(Entry::Repeat(f, _)) => Some(Run::Repeat(f.clone())),
            None => None,
        }
    };
    let result = catch_unwind(AssertUnwindSafe(|| match run {
        Some(Run::Once(f)) => f(),
        Some(Run::Repeat(f)) => f(),
        None => {}
    }));
    if result.is_err() {
        // A panic cannot unwind into the driver's thread; it would abort anyway.
        eprintln!("dccuda: a stream callback panicked; aborting");
        std::process::abort();
    }
}
