//! Speed target: `import` of a 3,000-instruction trace in under 0.1 s.
//! Run with `cargo bench --bench import`.

use criterion::{criterion_group, criterion_main, Criterion};
use gpu_makespan::import::{import, Format, Request};
use gpu_makespan::SmCounts;
use std::hint::black_box;

/// A PTX trace of 3,000 instructions: loads, arithmetic, stores and a barrier every 300.
fn trace() -> String {
    let mut s = String::from(".version 6.0\n.target sm_60\n.visible .entry t()\n{\n");
    for i in 0..3000 {
        s.push_str(match i % 10 {
            0 | 3 => "\tld.global.f32 \t%f1, [%rd1];\n",
            9 => "\tst.shared.f32 \t[%r1], %f2;\n",
            5 if i % 300 == 5 => "\tbar.sync \t0;\n",
            _ => "\tfma.rn.f32 \t%f2, %f1, %f1, %f2;\n",
        });
    }
    s.push_str("\tret;\n}\n");
    s
}

fn bench(c: &mut Criterion) {
    let text = trace();
    let req = Request::new(8, SmCounts::TX2).with_trace(true);
    c.bench_function("import_trace_3000", |b| b.iter(|| black_box(import(&text, "trace.ptx", Format::Ptx, &req).unwrap().kernel.len())));
}

criterion_group!(benches, bench);
criterion_main!(benches);
