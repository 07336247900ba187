//! A buffer used on several streams is freed only after the work of every one of them:
//! dropping it from safe code never lets queued work touch freed (or reused) memory.
//!
//! The fake driver makes the hazard visible: `dcfake_hold_stream` keeps the work of a
//! stream waiting, as a busy GPU stream would, and a held fill whose memory was freed
//! meanwhile fails at the stream's next synchronisation. On a real driver the test is
//! skipped (a GPU shows the hazard only by timing).
mod common;

use std::ffi::{c_char, c_int, c_void, CString};

use dccuda::{DeviceBuffer, Stream};

type HoldFn = unsafe extern "C" fn(*mut c_void, c_int);

extern "C" {
    fn dlopen(filename: *const c_char, flags: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
}

/// The fake driver's dcfake_hold_stream, from the copy the library loaded.
fn fake_hold() -> Option<HoldFn> {
    let path = std::env::var("DCCUDA_DRIVER_LIBRARY").ok().filter(|p| p.contains("dcfake"))?;
    let path = CString::new(path).ok()?;
    const RTLD_NOW: c_int = 2;
    // SAFETY: plain dlopen/dlsym; the same path gives the instance the library loaded.
    unsafe {
        let lib = dlopen(path.as_ptr(), RTLD_NOW);
        if lib.is_null() {
            return None;
        }
        let sym = dlsym(lib, c"dcfake_hold_stream".as_ptr());
        (!sym.is_null()).then(|| std::mem::transmute::<*mut c_void, HoldFn>(sym))
    }
}

struct Held<'a> {
    hold: HoldFn,
    stream: &'a Stream,
}

impl<'a> Held<'a> {
    fn new(hold: HoldFn, stream: &'a Stream) -> Self {
        // SAFETY: the fake's control, given the stream's live CUstream.
        unsafe { hold(stream.native().unwrap(), 1) };
        Held { hold, stream }
    }
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        // SAFETY: as in new.
        unsafe { (self.hold)(self.stream.native().unwrap(), 0) };
    }
}

fn setup() -> Option<(HoldFn, dccuda::Device)> {
    let device = common::device()?;
    match fake_hold() {
        Some(hold) => Some((hold, device)),
        None => {
            eprintln!("SKIPPED: needs the fake driver's held streams (dcfake_hold_stream)");
            None
        }
    }
}

#[test]
fn a_buffer_used_on_two_streams_is_freed_after_both() {
    let Some((hold, device)) = setup() else { return };
    let a = Stream::new(&device).unwrap();
    let b = Stream::new(&device).unwrap();
    let n = 1 << 16;
    let mut buf = DeviceBuffer::<u32>::new(&device, n).unwrap();
    {
        let _busy = Held::new(hold, &a);
        buf.fill_range_async(0, n, 7, &a).unwrap(); // waits behind a's earlier work
        buf.fill_range_async(0, 16, 9, &b).unwrap(); // the last use: stream b
                                                     // The library frees in stream order on b, the last stream; a's fill must have run
                                                     // first, or it writes memory that is free (and may be someone else's).
        drop(buf);
    }
    a.synchronize().expect("a fill still queued on another stream ran after its buffer was freed (use after free)");
    b.synchronize().unwrap();
}

#[test]
fn a_copy_source_used_on_another_stream_is_freed_after_it() {
    let Some((hold, device)) = setup() else { return };
    let a = Stream::new(&device).unwrap();
    let b = Stream::new(&device).unwrap();
    let n = 4096;
    let src = DeviceBuffer::from_slice(&device, &vec![5u32; n]).unwrap();
    let mut dst = DeviceBuffer::<u32>::new(&device, n).unwrap();
    let mut other = DeviceBuffer::<u32>::new(&device, n).unwrap();
    {
        let _busy = Held::new(hold, &a);
        dst.copy_from_buffer_async(0, &src, 0, n, &a).unwrap(); // reads src on a, later
        other.copy_from_buffer_async(0, &src, 0, n, &b).unwrap(); // src's last use: b
        drop(src);
    }
    a.synchronize().expect("a copy still queued on another stream read its freed source (use after free)");
    assert_eq!(dst.to_vec().unwrap(), vec![5u32; n]);
    assert_eq!(other.to_vec().unwrap(), vec![5u32; n]);
}

#[test]
fn one_stream_needs_no_wait_and_still_works() {
    let Some((hold, device)) = setup() else { return };
    let a = Stream::new(&device).unwrap();
    let n = 1024;
    let mut buf = DeviceBuffer::<u32>::new(&device, n).unwrap();
    let mut back = vec![0u32; n];
    {
        let _busy = Held::new(hold, &a);
        buf.fill_range_async(0, n, 3, &a).unwrap();
        buf.read_at_async(0, &mut back, &a).unwrap();
    }
    a.synchronize().unwrap();
    drop(buf); // freed in order on a, its only stream
    assert!(back.iter().all(|&v| v == 3), "the held fill and read ran in order");
}

/// The same hazard on a real GPU, where it shows as reused memory: stream `a` is kept busy
/// by a host function that returns only when another thread says so; a fill of the buffer
/// waits behind it; the buffer's last use is on `b`, where it is then dropped, and a new
/// buffer of the same size is allocated on `b` (the pool hands back the same memory) and
/// filled with 0x11. Without waiting for `a`, `a`'s fill later overwrites the new buffer.
/// On the fake driver a host function runs at once, so this cannot show anything there:
/// it is skipped (the held-stream tests above cover the fake).
#[test]
fn on_a_gpu_a_busy_stream_never_writes_into_memory_reused_after_drop() {
    let Some(device) = common::device() else { return };
    if dccuda::driver_library().unwrap_or_default().contains("dcfake") {
        eprintln!("SKIPPED: needs a GPU (on the fake driver a host function never keeps a stream busy)");
        return;
    }
    let a = Stream::new(&device).unwrap();
    let b = Stream::new(&device).unwrap();
    let n = 1 << 20;
    let mut old = DeviceBuffer::<u32>::new_async(&b, n).unwrap();
    b.synchronize().unwrap();
    let (go, wait) = std::sync::mpsc::channel::<()>();
    a.add_callback(move || {
        let _ = wait.recv_timeout(std::time::Duration::from_secs(10));
    })
    .unwrap();
    old.fill_range_async(0, n, 7, &a).unwrap(); // behind the busy host function
    old.fill_range_async(0, 16, 9, &b).unwrap(); // the last use: b
    let release = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(300));
        let _ = go.send(());
    });
    drop(old); // must wait for a's fill
    let mut new = DeviceBuffer::<u32>::new_async(&b, n).unwrap();
    new.fill_range_async(0, n, 0x11, &b).unwrap();
    b.synchronize().unwrap();
    release.join().unwrap();
    a.synchronize().unwrap();
    let got = new.to_vec().unwrap();
    let clobbered = got.iter().filter(|&&v| v != 0x11).count();
    assert_eq!(
        clobbered, 0,
        "{clobbered} of {n} elements of the new buffer were overwritten by work of another stream on the dropped one"
    );
}
