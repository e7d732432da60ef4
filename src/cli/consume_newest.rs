//! `kscope consume TOPIC --key K` newest first, in the partition the key
//! maps to (`consume_key`).
//!
//! Newest first reads the partition backwards in windows of offsets (1,000
//! records, then four times more each time), each window forward, until
//! enough matches are found or the log start is reached; every window's
//! matches are printed newest first.
//!
//! What is fetched twice counts against the goal of reading about one
//! partition's share (issue 29), so:
//! - A window's first batch usually starts before the window (a fetch
//!   answers with the whole batch holding the offset asked for): its
//!   records before the window are kept ([`Options::keep_before`]) and the
//!   next, older window ends where that batch begins, so no batch is fetched
//!   by two windows (with librdkafka's 1 MB batches a boundary inside one
//!   cost a whole batch).
//! - Each fetch of a window asks for about the bytes the window has left
//!   ([`Options::fit`]: bytes per offset as read so far, plus a fiftieth and
//!   16 KiB), so that one fetch reads it whole and little past its end (the
//!   next window's start, read already). An answer cut inside a batch (the
//!   batch holding the window's start made it longer than asked) costs that
//!   partial batch, fetched again by the next fetch, which asks only for
//!   what is left, not for a whole window again. A batch larger than the
//!   whole ask still comes whole (KIP-74).

use std::io::Write;

use crate::browse::{self, Browser, Event, Fit, Options, Record, Start};
use crate::meta::Cluster;

use super::consume_key::KeyArg;
use super::consume_sink::{ConsumeArgs, Output};
use super::error::Error;

/// The first window read back from the end, in records.
const FIRST_WINDOW: i64 = 1000;
/// The per-partition fetch size of the first window (it ends at the log's
/// end, so nothing is read past it).
const FIRST_FETCH_BYTES: i32 = 1024 * 1024;

/// One window to read: offsets `lo..hi`, each fetch sized to what is left
/// of it at the rate read so far (the first window, `fit` `None`, ends at
/// the log's end: nothing past it to read, it asks [`FIRST_FETCH_BYTES`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Plan {
    lo: i64,
    hi: i64,
    fit: Option<Fit>,
}

/// What reading a window gave.
#[derive(Debug, Default)]
struct Window {
    /// The matches, in offset order.
    found: Vec<Record>,
    /// The first offset read: `lo`, or the base offset of the batch holding
    /// `lo` when that batch starts before it (its records before `lo` come
    /// whole with it and are kept, [`Options::keep_before`]): the next,
    /// older window ends here and fetches no batch again.
    from: i64,
    /// Bytes of record batches fetched.
    fetched: u64,
    /// Bytes of the record batches read whole (`from..hi`, and past `hi`
    /// only the end of the batch holding `hi - 1`): the rate of bytes per
    /// offset the next windows' fetches are sized by. What was fetched for
    /// nothing is left out, or it would make the next asks larger still.
    read_bytes: u64,
}

/// Where newest first reads windows and prints matches (a trait so that
/// the walk over windows is unit-tested with a fake partition).
trait Search {
    /// Read `plan`'s window, never before `low` (the log start).
    async fn read(&mut self, plan: Plan, low: i64) -> Result<Window, Error>;
    /// Print a match; whether it passed (`--filter` may drop it).
    async fn print(&mut self, record: &Record) -> Result<bool, Error>;
    /// A window's matches are printed.
    fn flush(&mut self) -> Result<(), Error>;
}

/// Newest first: read `partition` backwards in windows, printing each
/// window's matches newest first, until `count` are printed or the log
/// start is reached. Returns the matches printed and the bytes fetched.
pub async fn newest_first(
    cluster: &Cluster,
    args: &ConsumeArgs,
    key: &KeyArg,
    partition: i32,
    output: &mut Output<'_>,
    out: &mut impl Write,
) -> Result<(u64, u64), Error> {
    let (low, end) = browse::watermarks(cluster, &args.topic, partition, args.isolation).await?;
    let mut live = Live {
        cluster,
        args,
        key,
        partition,
        output,
        out,
    };
    walk(&mut live, low, end, args.count.unwrap_or(1)).await
}

/// Walk `low..end` backwards in windows until `count` matches are printed.
async fn walk(
    search: &mut impl Search,
    low: i64,
    end: i64,
    count: u64,
) -> Result<(u64, u64), Error> {
    let (mut hi, mut window, mut printed) = (end, FIRST_WINDOW, 0_u64);
    let (mut fetched, mut read_bytes) = (0_u64, 0_u64);
    while hi > low && printed < count {
        let lo = hi.saturating_sub(window).max(low);
        let fit = (hi < end).then_some(Fit {
            bytes: read_bytes,
            offsets: end - hi,
        });
        let read = search.read(Plan { lo, hi, fit }, low).await?;
        fetched += read.fetched;
        read_bytes += read.read_bytes;
        for record in read.found.iter().rev() {
            if printed >= count {
                break;
            }
            if search.print(record).await? {
                printed += 1;
            }
        }
        search.flush()?;
        hi = read.from.clamp(low, lo);
        window = window.saturating_mul(4);
    }
    Ok((printed, fetched))
}

/// The real thing: a [`Browser`] per window over the key's partition.
struct Live<'a, 'o, W> {
    cluster: &'a Cluster,
    args: &'a ConsumeArgs,
    key: &'a KeyArg,
    partition: i32,
    output: &'a mut Output<'o>,
    out: &'a mut W,
}

impl<W: Write> Search for Live<'_, '_, W> {
    async fn read(&mut self, plan: Plan, low: i64) -> Result<Window, Error> {
        let options = Options {
            isolation: self.args.isolation,
            until: Some(plan.hi),
            partition_max_bytes: plan
                .fit
                .map_or(FIRST_FETCH_BYTES, |fit| fit.ask(plan.hi - plan.lo)),
            keep_before: Some(low),
            fit: plan.fit,
            ..Options::default()
        };
        let mut browser = Browser::open(
            self.cluster.clone(),
            &self.args.topic,
            Some(self.partition),
            &Start::Offset(plan.lo),
            options,
        )
        .await?;
        let mut found = Vec::new();
        while !browser.finished() {
            for event in browser.next_events().await? {
                match event {
                    Event::Notice(notice) => Output::notice(&self.args.shown_topic, &notice),
                    Event::Record(record) => {
                        if self.key.matches(&record, self.output.decoder).await {
                            found.push(record);
                        }
                    }
                }
            }
        }
        let from = browser
            .read_from()
            .get(&self.partition)
            .copied()
            .unwrap_or(plan.lo);
        Ok(Window {
            found,
            from,
            fetched: browser.bytes_fetched(),
            read_bytes: browser.bytes_read(),
        })
    }

    async fn print(&mut self, record: &Record) -> Result<bool, Error> {
        self.output.print(self.args, record, self.out).await
    }

    fn flush(&mut self) -> Result<(), Error> {
        Ok(self.out.flush()?)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use proptest::prelude::*;

    use super::*;

    /// A FAKE partition, no broker: a fetch is worked out here the way a
    /// broker answers one (whole batches, from the one holding the offset
    /// asked for), and a window reads what `Browser` with `until` and
    /// `keep_before` hands out (tested on real batches in `cursor_tests.rs`
    /// and against the real cluster in `tests/consume_key.rs`). What is
    /// tested is the walk over windows: the order, nothing twice, nothing
    /// missed, and how often each batch is fetched.
    struct FakePartition {
        /// Each batch's base and last offset; `holes` are offsets compacted
        /// away inside them, and offsets between batches do not exist.
        batches: Vec<(i64, i64)>,
        holes: Vec<i64>,
        /// Keep the first batch's records before the window (the fix), or
        /// not (as before it: the next window fetches that batch again).
        keep: bool,
        /// Fetches per batch (by index).
        fetches: BTreeMap<usize, u32>,
        printed: Vec<i64>,
        /// `--filter` drops these when printed.
        dropped: fn(i64) -> bool,
    }

    /// The key searched for is on every offset divisible by 7.
    fn is_match(offset: i64) -> bool {
        offset % 7 == 0
    }

    impl FakePartition {
        fn new(batches: Vec<(i64, i64)>, holes: Vec<i64>, keep: bool) -> FakePartition {
            FakePartition {
                batches,
                holes,
                keep,
                fetches: BTreeMap::new(),
                printed: Vec::new(),
                dropped: |_| false,
            }
        }

        fn exists(&self, offset: i64) -> bool {
            !self.holes.contains(&offset)
                && self
                    .batches
                    .iter()
                    .any(|(b, l)| (*b..=*l).contains(&offset))
        }

        /// The matches in `low..end`, newest first: what a walk must print.
        fn expected(&self, low: i64, end: i64) -> Vec<i64> {
            (low..end)
                .rev()
                .filter(|o| is_match(*o) && self.exists(*o) && !(self.dropped)(*o))
                .collect()
        }
    }

    impl Search for FakePartition {
        async fn read(&mut self, plan: Plan, low: i64) -> Result<Window, Error> {
            let Plan { lo, hi, .. } = plan;
            let first = self.batches.iter().position(|(_, last)| *last >= lo);
            let mut read = Window {
                from: lo,
                ..Window::default()
            };
            let Some(first) = first else {
                return Ok(read);
            };
            if self.keep {
                read.from = lo.min(self.batches[first].0.max(low));
            }
            for (i, (base, last)) in self.batches.iter().enumerate().skip(first) {
                if *base >= hi {
                    break;
                }
                *self.fetches.entry(i).or_default() += 1;
                read.fetched += u64::try_from(last - base + 1).unwrap() * 100;
                read.read_bytes = read.fetched;
                read.found.extend(
                    (*base..=*last)
                        .filter(|o| *o >= read.from && *o < hi)
                        .filter(|o| is_match(*o) && !self.holes.contains(o))
                        .map(|o| Record::sample(o, 1)),
                );
            }
            Ok(read)
        }

        async fn print(&mut self, record: &Record) -> Result<bool, Error> {
            self.printed.push(record.offset);
            Ok(!(self.dropped)(record.offset))
        }

        fn flush(&mut self) -> Result<(), Error> {
            Ok(())
        }
    }

    fn block_on<T>(future: impl Future<Output = T>) -> T {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(future)
    }

    /// Batches of `sizes` records from `first` on, `gaps[i]` offsets
    /// missing before batch i (cycled).
    fn layout(first: i64, sizes: &[i64], gaps: &[i64]) -> Vec<(i64, i64)> {
        let mut at = first;
        sizes
            .iter()
            .enumerate()
            .map(|(i, size)| {
                at += gaps.get(i % gaps.len().max(1)).copied().unwrap_or(0);
                let batch = (at, at + size - 1);
                at += size;
                batch
            })
            .collect()
    }

    #[test]
    fn a_batch_split_by_a_window_is_fetched_once_and_its_records_come_out_in_order() {
        // librdkafka's big batches under backlog: ~4,000 records each, so
        // every window boundary (1,000, 5,000, 21,000 from the end) falls
        // inside one.
        let batches = layout(0, &[4100, 3900, 4050, 3950, 4000, 2600], &[0]);
        let end = batches.last().unwrap().1 + 1;
        for keep in [false, true] {
            let mut fake = FakePartition::new(batches.clone(), vec![], keep);
            let (printed, fetched) = block_on(walk(&mut fake, 0, end, u64::MAX)).unwrap();
            assert_eq!(fake.printed, fake.expected(0, end), "keep {keep}");
            assert_eq!(printed, u64::try_from(fake.printed.len()).unwrap());
            let twice: Vec<usize> = fake
                .fetches
                .iter()
                .filter(|(_, n)| **n > 1)
                .map(|(i, _)| *i)
                .collect();
            if keep {
                assert!(twice.is_empty(), "fetched twice: {twice:?}");
                assert_eq!(fetched, u64::try_from(end).unwrap() * 100);
            } else {
                // What keeping them removes: the batches holding the window
                // starts (end - 1,000 in batch 5, end - 5,000 in batch 4,
                // end - 21,000 in batch 0) were fetched by two windows.
                assert_eq!(twice, [0, 4, 5]);
            }
        }
    }

    #[test]
    fn the_log_start_inside_a_batch_and_a_count_stop_where_they_should() {
        // The log starts at 150, inside the first batch (records were
        // deleted): nothing before it is printed.
        let batches = layout(100, &[500, 700, 300, 900], &[0, 13]);
        let end = batches.last().unwrap().1 + 1;
        let mut fake = FakePartition::new(batches.clone(), vec![], true);
        block_on(walk(&mut fake, 150, end, u64::MAX)).unwrap();
        assert_eq!(fake.printed, fake.expected(150, end));
        assert!(fake.printed.iter().all(|o| *o >= 150));
        // -n 5: the newest five, and no window more than needed.
        let mut fake = FakePartition::new(batches, vec![], true);
        let (printed, _) = block_on(walk(&mut fake, 150, end, 5)).unwrap();
        assert_eq!(printed, 5);
        assert_eq!(fake.printed, fake.expected(150, end)[..5]);
        assert_eq!(fake.fetches.keys().copied().collect::<Vec<_>>(), [2, 3]);
    }

    #[test]
    fn records_a_filter_drops_do_not_count() {
        let batches = layout(0, &[3000, 3000], &[0]);
        let mut fake = FakePartition::new(batches, vec![], true);
        fake.dropped = |o| o % 2 == 0;
        let (printed, _) = block_on(walk(&mut fake, 0, 6000, 3)).unwrap();
        assert_eq!(printed, 3);
        assert_eq!(fake.printed, [5999, 5992, 5985, 5978, 5971]);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Any layout of batches (sizes, gaps between them, holes left by
        /// compaction, the log start anywhere in the first batch): every
        /// match once, newest first, and no batch fetched twice.
        #[test]
        fn every_match_once_newest_first_and_no_batch_fetched_twice(
            sizes in prop::collection::vec(1_i64..6000, 1..12),
            gaps in prop::collection::vec(0_i64..40, 1..4),
            holes in prop::collection::vec(0_i64..40_000, 0..50),
            first in 0_i64..2000,
            cut in 0_i64..6000,
            count in prop_oneof![Just(u64::MAX), 1_u64..200],
        ) {
            let batches = layout(first, &sizes, &gaps);
            let end = batches.last().unwrap().1 + 1;
            let low = (first + cut).min(batches[0].1);
            let mut fake = FakePartition::new(batches, holes, true);
            let want = fake.expected(low, end);
            let (printed, _) = block_on(walk(&mut fake, low, end, count)).unwrap();
            let n = want.len().min(usize::try_from(count).unwrap_or(usize::MAX));
            prop_assert_eq!(&fake.printed, &want[..n].to_vec());
            prop_assert_eq!(printed, u64::try_from(n).unwrap());
            prop_assert!(fake.fetches.values().all(|n| *n == 1), "{:?}", fake.fetches);
        }
    }
}
