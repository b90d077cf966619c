//! The typed API makes no heap allocation on layouts of at most 8 leaves
//! (design.md, "The representation today": such layouts are inline),
//! flat tilers included: a Rust tuple or array tiler is built on the stack
//! (`IntoTiler::with_tiler`, `TilerItems::Borrowed`), a `&Layout` tiler is
//! borrowed. Counted by this test binary's global allocator, per thread, so
//! the other tests running beside it do not disturb the count.

use rcute::{Layout, Result};
use std::alloc::{GlobalAlloc, Layout as AllocLayout, System};
use std::cell::Cell;

/// The system allocator with a per-thread count of allocations.
struct Counting;

thread_local! {
    static COUNT: Cell<u64> = const { Cell::new(0) };
}

// SAFETY: every call goes to the system allocator unchanged; the only
// addition is a thread-local counter (const-initialised, no destructor).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: AllocLayout) -> *mut u8 {
        let _ = COUNT.try_with(|c| c.set(c.get() + 1));
        unsafe { System.alloc(l) }
    }
    unsafe fn alloc_zeroed(&self, l: AllocLayout) -> *mut u8 {
        let _ = COUNT.try_with(|c| c.set(c.get() + 1));
        unsafe { System.alloc_zeroed(l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: AllocLayout, n: usize) -> *mut u8 {
        let _ = COUNT.try_with(|c| c.set(c.get() + 1));
        unsafe { System.realloc(p, l, n) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: AllocLayout) {
        unsafe { System.dealloc(p, l) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The allocations `f` makes on this thread (its result dropped inside).
fn allocations<T>(f: impl FnOnce() -> Result<T>) -> u64 {
    let before = COUNT.with(Cell::get);
    let r = f();
    assert!(r.is_ok(), "the call failed");
    drop(r);
    COUNT.with(Cell::get) - before
}

#[test]
fn typed_calls_on_small_layouts_do_not_allocate() -> Result<()> {
    let m = Layout::column_major((4096, 4096))?;
    let a = Layout::new((6, 2), (8, 2))?;
    let b = Layout::new((4, 3), (3, 1))?;
    let t = Layout::new(4, 2)?;
    let v = Layout::new(24, 1)?;
    let w = Layout::new((8, 16), (20, 1))?;
    let (t4, t8) = (Layout::new(4, 1)?, Layout::new(8, 2)?);
    // the counter itself works: a Vec allocates
    assert_eq!(allocations(|| Ok(vec![1u8; 3])), 1);
    // tuple and array tilers (the case whose item list used to be a Vec)
    assert_eq!(allocations(|| m.zipped_divide((128, 64))), 0);
    assert_eq!(allocations(|| m.zipped_divide([128, 64])), 0);
    assert_eq!(allocations(|| m.logical_divide((128, None::<i64>))), 0);
    assert_eq!(allocations(|| w.logical_divide((&t4, &t8))), 0);
    assert_eq!(allocations(|| w.logical_product((&t4, 2))), 0);
    // borrowed layout tilers
    assert_eq!(allocations(|| a.compose(&b)), 0);
    assert_eq!(allocations(|| v.logical_divide(&t)), 0);
    assert_eq!(allocations(|| b.blocked_product(&t)), 0);
    assert_eq!(allocations(|| b.raked_product(&t)), 0);
    // unary operations
    assert_eq!(allocations(|| a.coalesce()), 0);
    assert_eq!(allocations(|| a.complement()), 0);
    assert_eq!(allocations(|| a.left_inverse()), 0);
    Ok(())
}
