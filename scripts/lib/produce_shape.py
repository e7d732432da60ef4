"""Fill a topic with records of one shape, written by librdkafka (the
confluent-kafka wheel scripts/kcat installs), for scripts/bench-consume-shapes.

    python3 produce_shape.py BOOTSTRAP TOPIC RECORDS VALUE_BYTES KEYS(0|1) CODEC BATCH(small|big)

Values are JSON objects padded to VALUE_BYTES (quotes inside, as real JSON
payloads have); with KEYS=1 each record has a string key and two headers.
`big` batches: linger.ms=50, batch.size=1 MiB (high-throughput producers);
`small`: linger.ms=0 (a batch per record or few).
"""
import json
import sys

from confluent_kafka import Producer

bootstrap, topic, records, value_bytes, keys, codec, batch = sys.argv[1:8]
records, value_bytes, keys = int(records), int(value_bytes), keys == "1"
config = {
    "bootstrap.servers": bootstrap,
    "compression.type": codec,
    "acks": "1",
    "queue.buffering.max.kbytes": 1048576,
    "queue.buffering.max.messages": 1000000,
}
if batch == "big":
    config.update({"linger.ms": 50, "batch.size": 1048576, "message.max.bytes": 10485760})
else:
    config.update({"linger.ms": 0})
producer = Producer(config)

values = []
for i in range(500):
    value = {"id": i, "user": f"user-{i % 977}", "event": "page_view", "ok": True, "payload": ""}
    base = len(json.dumps(value, separators=(",", ":")))
    pad = max(0, value_bytes - base)
    value["payload"] = ("abcdefghij\"klmnop\\qr" * (pad // 20 + 1))[:pad]
    values.append(json.dumps(value, separators=(",", ":")).encode())

for i in range(records):
    kwargs = {"value": values[i % len(values)]}
    if keys:
        kwargs["key"] = f"order-{i % 10007}".encode()
        kwargs["headers"] = [("trace-id", f"{i:016x}".encode()), ("region", b"eu-west-1")]
    while True:
        try:
            producer.produce(topic, **kwargs)
            break
        except BufferError:
            producer.poll(0.1)
    if i % 1000 == 0:
        producer.poll(0)
left = producer.flush(120)
if left:
    sys.exit(f"{left} records not delivered")
