//! Graphs built node by node with the idiomatic builder: kernels, copies, fills and a host
//! node with dependencies, inspection, a node changed in place, a clone, and refused input.
//! On the fake driver the kernels are emulated; on a GPU they run. Results are checked
//! against a CPU reference either way.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use dccuda::{DeviceBuffer, Graph, KernelArg, LaunchConfig, Module, Node, Status, Stream};

#[test]
fn a_built_graph_runs_its_nodes_in_order_and_changes_in_place() {
    let Some(device) = common::device() else { return };
    if let Err(e) = dccuda::nvrtc_version() {
        eprintln!("SKIPPED: no NVRTC ({e})");
        return;
    }
    let module = Module::compile_and_load(&device, common::SAXPY, &dccuda::CompileOptions::new()).unwrap();
    let saxpy = module.function("saxpy").unwrap();
    let stream = Stream::new(&device).unwrap();
    let n = 1000usize;
    let input: Vec<f32> = (0..n).map(|i| i as f32 * 0.25).collect();
    let host_x = DeviceBuffer::from_slice(&device, &input).unwrap();
    let x = DeviceBuffer::<f32>::from_slice(&device, &vec![0.0; n]).unwrap();
    let y = DeviceBuffer::<f32>::from_slice(&device, &vec![0.0; n]).unwrap();
    let calls = Arc::new(AtomicUsize::new(0));

    let mut g = Graph::new(&device).unwrap();
    let copy = g.copy(&x, &host_x, &[]).unwrap();
    let fill = g.fill_u32(&y, 1.0f32.to_bits(), &[]).unwrap();
    let a = 2.0f32;
    let count = n as i32;
    let config = LaunchConfig::linear(n as u32, 256);
    let args = [KernelArg::value(&a), KernelArg::buffer(&x), KernelArg::buffer(&y), KernelArg::value(&count)];
    // SAFETY: saxpy(a, x, y, n) gets the two buffers of n floats it indexes below n.
    let k = unsafe { g.kernel(&saxpy, &config, &args, &[copy, fill]) }.unwrap();
    let c = calls.clone();
    let host = g.host(move || { c.fetch_add(1, Ordering::SeqCst); }, &[k]).unwrap();

    let order = g.nodes().unwrap();
    assert_eq!(order.len(), 4);
    let place = |node: Node| order.iter().position(|&o| o == node).unwrap();
    assert!(place(copy) < place(k) && place(fill) < place(k) && place(k) < place(host));
    assert_eq!(g.node_type(k).unwrap(), dccuda::sys::DC_GRAPH_NODE_KERNEL);
    assert_eq!(g.edges().unwrap().len(), 3);

    g.launch(&stream).unwrap();
    stream.synchronize().unwrap();
    let want: Vec<f32> = input.iter().map(|v| 2.0 * v + 1.0).collect();
    assert_eq!(y.to_vec().unwrap(), want);
    assert_eq!(calls.load(Ordering::SeqCst), 1);

    // A new factor for the kernel, in place.
    let a2 = 3.0f32;
    let args2 = [KernelArg::value(&a2), KernelArg::buffer(&x), KernelArg::buffer(&y), KernelArg::value(&count)];
    // SAFETY: as above, with buffers of the same length.
    unsafe { g.set_kernel(k, &config, &args2) }.unwrap();
    g.launch(&stream).unwrap();
    stream.synchronize().unwrap();
    let want: Vec<f32> = input.iter().map(|v| 3.0 * v + 1.0).collect();
    assert_eq!(y.to_vec().unwrap(), want);
    assert_eq!(calls.load(Ordering::SeqCst), 2);

    // A clone has the same ids; a cycle is refused.
    let clone = g.try_clone().unwrap();
    assert_eq!(clone.nodes().unwrap(), g.nodes().unwrap());
    let e = g.depend(host, copy).unwrap_err();
    assert_eq!(e.status(), Status::INVALID_ARGUMENT);
    assert!(e.message().contains("would close a cycle"), "{}", e.message());
    let e = g.node_type(Node(0)).unwrap_err();
    assert_eq!(e.status(), Status::INVALID_ARGUMENT);
}

#[test]
fn alloc_and_free_nodes_give_a_temporary_each_launch() {
    let Some(device) = common::device() else { return };
    let stream = Stream::new(&device).unwrap();
    let n = 512usize;
    let input: Vec<u32> = (0..n as u32).map(|i| i.wrapping_mul(2654435761)).collect();
    let src = DeviceBuffer::from_slice(&device, &input).unwrap();
    let out = DeviceBuffer::<u32>::from_slice(&device, &vec![0; n]).unwrap();

    // alloc t -> copy src -> t -> copy t -> out -> free t.
    let mut g = Graph::new(&device).unwrap();
    // SAFETY: `t` is used only by the two copy nodes between its alloc and free nodes.
    let (alloc, t) = unsafe { g.alloc::<u32>(n, &[]) }.unwrap();
    let e = g.launch(&stream).unwrap_err();
    assert_eq!(e.status(), Status::INVALID_STATE);
    assert!(e.message().contains("has no free node"), "{}", e.message());
    let into = g.copy(&t, &src, &[alloc]).unwrap();
    let back = g.copy(&out, &t, &[into]).unwrap();
    let e = g.free(&src, &[back]).unwrap_err();
    assert_eq!(e.status(), Status::INVALID_ARGUMENT);
    assert!(e.message().contains("not the buffer of an alloc node"), "{}", e.message());
    let free = g.free(&t, &[back]).unwrap();
    assert_eq!(g.node_type(alloc).unwrap(), dccuda::sys::DC_GRAPH_NODE_MEM_ALLOC);
    assert_eq!(g.node_type(free).unwrap(), dccuda::sys::DC_GRAPH_NODE_MEM_FREE);
    assert_eq!(g.free(&t, &[back]).unwrap_err().status(), Status::INVALID_ARGUMENT);
    assert_eq!(g.try_clone().unwrap_err().status(), Status::INVALID_ARGUMENT);
    for _ in 0..2 {
        g.launch(&stream).unwrap();
        stream.synchronize().unwrap();
        assert_eq!(out.to_vec().unwrap(), input);
    }
}

#[test]
fn a_2d_copy_node_moves_the_tile_a_stream_copy_moves() {
    let Some(device) = common::device() else { return };
    let stream = Stream::new(&device).unwrap();
    let data: Vec<u32> = (0..1024u32).map(|i| i.wrapping_mul(2246822519)).collect();
    let src = DeviceBuffer::from_slice(&device, &data).unwrap();
    let by_graph = DeviceBuffer::<u32>::from_slice(&device, &[0; 1024]).unwrap();
    let mut by_copy = DeviceBuffer::<u32>::from_slice(&device, &[0; 1024]).unwrap();
    // 7 rows of 10 elements: src rows 32 apart from 3, dst rows 16 apart from 1.
    let mut g = Graph::new(&device).unwrap();
    g.copy_2d(&by_graph, 1, 16, &src, 3, 32, 10, 7, &[]).unwrap();
    g.launch(&stream).unwrap();
    stream.synchronize().unwrap();
    by_copy.copy_from_2d(1, 16, &src, 3, 32, 10, 7).unwrap();
    assert_eq!(by_graph.to_vec().unwrap(), by_copy.to_vec().unwrap());
    assert_eq!(by_graph.to_vec().unwrap()[1 + 16 * 6 + 9], data[3 + 32 * 6 + 9]);
    let e = g.copy_2d(&by_graph, 0, 8, &src, 0, 32, 10, 2, &[]).unwrap_err();
    assert_eq!(e.status(), Status::INVALID_ARGUMENT);
    assert!(e.message().contains("is less than width"), "{}", e.message());
}

#[test]
fn the_dot_text_names_the_nodes_and_the_edge() {
    let Some(device) = common::device() else { return };
    let a = DeviceBuffer::<u32>::from_slice(&device, &[0; 16]).unwrap();
    let b = DeviceBuffer::<u32>::from_slice(&device, &[0; 16]).unwrap();
    let mut g = Graph::new(&device).unwrap();
    let fill = g.fill_u32(&a, 7, &[]).unwrap();
    g.copy(&b, &a, &[fill]).unwrap();
    let text = g.dot(true).unwrap();
    assert!(text.starts_with("digraph"), "{text}");
    assert!(text.contains("->"), "the edge is missing: {text}");
    let path = std::env::temp_dir().join(format!("dccuda_rust_dot_{}.dot", std::process::id()));
    g.write_dot(&path, true).unwrap();
    let file = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    assert_eq!(text, file);
}
