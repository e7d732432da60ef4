"""Produce the records the browse tests read, with the Python client
(librdkafka, installed by scripts/kcat into the kscope cache dir).

usage: produce.py BOOTSTRAP TOPIC MODE [ARG]
  codecs     5 records per codec (none gzip snappy lz4 zstd) to partition 0,
             each with a duplicated header key; then a tombstone
  txn        transactional: 3 committed, 2 aborted, 1 committed (partition 0)
  spread N   N records round-robin over the topic's partitions, timestamps
             1000, 2000, ... ms after 2024-01-01T00:00:00Z
  plain N    N small records to partition 0 (value 'v-I')
  value V    one record to partition 0, key 'e2e', value V, header 'source: test'
  commit G P O  commit offset O of partition P for group G (no records)
  big N SIZE CODEC  N records of SIZE bytes each to partition 0 (value 'I:' then
             'x' up to SIZE), one per request, compressed with CODEC
  compact    keys k0..k4 written twice (values 'kK-0', 'kK-1'), then k0, k2 and
             k4 a third time ('kK-2'), to partition 0 with pauses so segments
             roll, then key 'roll' (offset 13) to close the last segment: the
             log cleaner leaves k1@6 k3@8 k0@10 k2@11 k4@12 roll@13
"""
import sys

from confluent_kafka import Consumer, Producer, TopicPartition

bootstrap, topic, mode = sys.argv[1:4]
arg = sys.argv[4:]
BASE = 1704067200000


def producer(**extra):
    conf = {"bootstrap.servers": bootstrap, "linger.ms": 5}
    conf.update(extra)
    return Producer(conf)


def done(p):
    left = p.flush(30)
    if left:
        sys.exit(f"{left} records not delivered")


if mode == "codecs":
    for codec in ["none", "gzip", "snappy", "lz4", "zstd"]:
        p = producer(**{"compression.type": codec})
        for i in range(5):
            p.produce(topic, key=f"{codec}-{i}", value=f'{{"codec":"{codec}","i":{i}}}',
                      partition=0, headers=[("trace", b"a"), ("trace", b"b"), ("nil", None)])
        done(p)
    p = producer()
    p.produce(topic, key="gone", value=None, partition=0)
    done(p)
elif mode == "txn":
    p = producer(**{"transactional.id": f"browse-test-{topic}"})
    p.init_transactions(30)
    for batch, commit in [(["committed-0", "committed-1", "committed-2"], True),
                          (["aborted-0", "aborted-1"], False),
                          (["committed-3"], True)]:
        p.begin_transaction()
        for value in batch:
            p.produce(topic, value=value, partition=0)
        p.flush(30)
        if commit:
            p.commit_transaction(30)
        else:
            p.abort_transaction(30)
elif mode == "spread":
    n = int(arg[0])
    parts = len(Consumer({"bootstrap.servers": bootstrap, "group.id": "unused"})
                .list_topics(topic, timeout=30).topics[topic].partitions)
    p = producer()
    for i in range(n):
        p.produce(topic, value=f"r-{i}", partition=i % parts, timestamp=BASE + 1000 * (i + 1))
    done(p)
elif mode == "plain":
    p = producer()
    for i in range(int(arg[0])):
        p.produce(topic, value=f"v-{i}", partition=0)
    done(p)
elif mode == "value":
    p = producer()
    p.produce(topic, key="e2e", value=arg[0], partition=0, headers=[("source", b"test")])
    done(p)
elif mode == "big":
    n, size, codec = int(arg[0]), int(arg[1]), arg[2]
    p = producer(**{"compression.type": codec, "message.max.bytes": size + (1 << 16),
                    "linger.ms": 0})
    for i in range(n):
        head = f"{i}:"
        p.produce(topic, value=head + "x" * (size - len(head)), partition=0)
        p.flush(30)
    done(p)
elif mode == "compact":
    import time
    p = producer()
    for r, keys in enumerate([range(5), range(5), range(0, 5, 2)]):
        for k in keys:
            p.produce(topic, key=f"k{k}", value=f"k{k}-{r}", partition=0)
        done(p)
        time.sleep(0.3)
    p.produce(topic, key="roll", value="roll", partition=0)
    done(p)
elif mode == "commit":
    group, partition, offset = arg[0], int(arg[1]), int(arg[2])
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": group, "enable.auto.commit": False})
    c.commit(offsets=[TopicPartition(topic, partition, offset)], asynchronous=False)
    c.close()
else:
    sys.exit(f"unknown mode {mode}")
