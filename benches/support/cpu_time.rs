//! A criterion measurement of the benchmarking thread's CPU time (from
//! `/proc/thread-self/schedstat`, in nanoseconds) instead of wall time. On
//! the shared build machine, with other builds holding both cores, wall
//! time mostly measures how long the thread waited for a core; CPU time is
//! what the code itself cost. BENCHMARK HARNESS (Linux only: elsewhere, or
//! if the file cannot be read, every reading is 0).

use criterion::Throughput;
use criterion::measurement::{Measurement, ValueFormatter};

/// The current thread's time on a CPU so far, in nanoseconds.
fn thread_cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|line| line.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// Thread CPU time, shown like criterion's wall time (`s`, `elem/s`).
pub struct CpuTime;

impl Measurement for CpuTime {
    type Intermediate = u64;
    type Value = u64;

    fn start(&self) -> u64 {
        thread_cpu_ns()
    }

    fn end(&self, start: u64) -> u64 {
        thread_cpu_ns().saturating_sub(start)
    }

    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }

    fn zero(&self) -> u64 {
        0
    }

    #[allow(clippy::cast_precision_loss)]
    fn to_f64(&self, value: &u64) -> f64 {
        *value as f64
    }

    fn formatter(&self) -> &dyn ValueFormatter {
        &Seconds
    }
}

/// Nanoseconds shown as CPU seconds, throughput per CPU second.
struct Seconds;

impl ValueFormatter for Seconds {
    fn scale_values(&self, _typical: f64, values: &mut [f64]) -> &'static str {
        for value in values {
            *value /= 1e9;
        }
        "s (CPU)"
    }

    #[allow(clippy::cast_precision_loss)]
    fn scale_throughputs(
        &self,
        _typical: f64,
        throughput: &Throughput,
        values: &mut [f64],
    ) -> &'static str {
        let per_iteration = match *throughput {
            Throughput::Elements(n)
            | Throughput::ElementsAndBytes { elements: n, .. }
            | Throughput::Bytes(n)
            | Throughput::BytesDecimal(n)
            | Throughput::Bits(n) => n,
        };
        for value in values {
            *value = per_iteration as f64 * 1e9 / *value / 1e3;
        }
        "K/s (CPU)"
    }

    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ns"
    }
}
