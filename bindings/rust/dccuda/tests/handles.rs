//! Every handle type is created and released: the library's live handle counts go up while
//! the Rust values live and back down when they are dropped. One test in its own binary
//! (own process), so no other test changes the counts meanwhile.

mod common;

use dccuda::{
    handle_count, CaptureMode, DeviceBuffer, Event, HandleType, Launch, LaunchConfig, Module, Program, Stream,
};

fn counts() -> Vec<u64> {
    HandleType::ALL.iter().map(|&t| handle_count(t).unwrap()).collect()
}

#[test]
fn every_handle_type_is_created_and_released() {
    let before = counts();
    {
        let Some(device) = common::device() else { return };
        if dccuda::nvrtc_version().is_err() {
            eprintln!("SKIPPED: no NVRTC");
            return;
        }
        let buffer = DeviceBuffer::<f32>::new(&device, 16).unwrap();
        let mut stream = Stream::new(&device).unwrap();
        let event = Event::new(&device).unwrap();
        let program = Program::compile(common::SAXPY, &dccuda::CompileOptions::new(), Some(&device)).unwrap();
        let module = Module::load_program(&device, &program, None).unwrap();
        let function = module.function("saxpy").unwrap();
        let mut launch = Launch::new(&function, &LaunchConfig::linear(16, 16)).unwrap();
        launch.set_arg(0, &1.0f32).unwrap();
        launch.set_arg(1, &buffer).unwrap();
        launch.set_arg(2, &buffer).unwrap();
        launch.set_arg(3, &16i32).unwrap();
        let graph = {
            // SAFETY: the buffers outlive every launch of the graph.
            let capture = unsafe { stream.begin_capture(CaptureMode::ThreadLocal) }.unwrap();
            unsafe { launch.enqueue(&capture) }.unwrap();
            capture.end().unwrap()
        };
        event.record(&stream).unwrap();
        let during = counts();
        for (i, t) in HandleType::ALL.iter().enumerate() {
            assert!(during[i] > before[i], "{t:?}: {} live before, {} now", before[i], during[i]);
        }
        graph.launch(&stream).unwrap();
        stream.synchronize().unwrap();
        drop((graph, launch, function, module, program, event, stream, buffer, device));
    }
    assert_eq!(counts(), before, "every handle was released (order: {:?})", HandleType::ALL);
}
