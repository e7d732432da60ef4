#!/usr/bin/env python3
"""A tiny Metadata client for the cluster script: no JVM start, no dependencies.

    kafka-probe.py brokers BOOTSTRAP              node ids Metadata lists, space separated
    kafka-probe.py replicas BOOTSTRAP TOPIC PART  the partition's replicas, comma separated
    kafka-probe.py leader BOOTSTRAP TOPIC PART    the partition's leader (-1 if none)
    kafka-probe.py port-open HOST:PORT            exit 0 if something accepts connections
    kafka-probe.py create-topics BOOTSTRAP PREFIX COUNT PARTITIONS RF
                                                  create PREFIX-01..PREFIX-COUNT in one request
                                                  (topics that already exist are left alone)

Metadata v8 (the newest non-flexible version) with allow_auto_topic_creation=false, so
asking about a topic never creates it. CreateTopics v4 (non-flexible), sent to any broker
(KRaft brokers forward it to the controller): one request instead of one JVM per topic.
BOOTSTRAP is a comma-separated host:port list; the first address that answers is used.
"""
import socket
import struct
import sys


def encode_string(value):
    data = value.encode()
    return struct.pack(">h", len(data)) + data


class Reader:
    def __init__(self, data):
        self.data = data
        self.pos = 0

    def take(self, fmt):
        size = struct.calcsize(fmt)
        (value,) = struct.unpack_from(fmt, self.data, self.pos)
        self.pos += size
        return value

    def string(self):
        length = self.take(">h")
        if length < 0:
            return None
        value = self.data[self.pos:self.pos + length].decode()
        self.pos += length
        return value

    def int32_array(self):
        return [self.take(">i") for _ in range(max(self.take(">i"), 0))]


def request(bootstrap, api_key, version, body, what, timeout=5):
    """Send one request to the first broker that answers; return the response body."""
    header = struct.pack(">hhi", api_key, version, 1) + encode_string("kscope-probe")
    frame = header + body
    last_error = None
    for address in bootstrap.split(","):
        host, port = address.rsplit(":", 1)
        try:
            with socket.create_connection((host, int(port)), timeout=3) as sock:
                sock.settimeout(timeout)
                sock.sendall(struct.pack(">i", len(frame)) + frame)
                size = struct.unpack(">i", recv_exact(sock, 4))[0]
                return Reader(recv_exact(sock, size))
        except (OSError, struct.error) as error:
            last_error = error
    raise SystemExit(f"no broker in {bootstrap} answered {what}: {last_error}")


def metadata(bootstrap, topics):
    body = struct.pack(">i", len(topics)) + b"".join(encode_string(t) for t in topics)
    body += b"\x00\x00\x00"  # allow_auto_topic_creation, cluster ops, topic ops: all false
    return parse(request(bootstrap, 3, 8, body, "Metadata"))


TOPIC_ALREADY_EXISTS = 36


def create_topics(bootstrap, names, partitions, replication_factor):
    """CreateTopics v4; returns {name: (error_code, message)} for the failures."""
    body = struct.pack(">i", len(names))
    for name in names:
        body += encode_string(name) + struct.pack(">ih", partitions, replication_factor)
        body += struct.pack(">ii", 0, 0)  # no manual assignments, no configs
    body += struct.pack(">ib", 60000, 0)  # timeout_ms, validate_only=false
    r = request(bootstrap, 19, 4, body, "CreateTopics", timeout=90)
    r.take(">i")  # correlation id
    r.take(">i")  # throttle time
    failed = {}
    for _ in range(r.take(">i")):
        name = r.string()
        error = r.take(">h")
        message = r.string()
        if error not in (0, TOPIC_ALREADY_EXISTS):
            failed[name] = (error, message)
    return failed


def recv_exact(sock, size):
    chunks = b""
    while len(chunks) < size:
        chunk = sock.recv(size - len(chunks))
        if not chunk:
            raise OSError("connection closed mid-response")
        chunks += chunk
    return chunks


def parse(r):
    r.take(">i")  # correlation id
    r.take(">i")  # throttle time
    brokers = []
    for _ in range(r.take(">i")):
        node = r.take(">i")
        r.string()
        r.take(">i")
        r.string()
        brokers.append(node)
    r.string()  # cluster id
    r.take(">i")  # controller id
    topics = {}
    for _ in range(r.take(">i")):
        error = r.take(">h")
        name = r.string()
        r.take(">b")
        partitions = {}
        for _ in range(r.take(">i")):
            r.take(">h")
            index = r.take(">i")
            leader = r.take(">i")
            r.take(">i")  # leader epoch
            replicas = r.int32_array()
            r.int32_array()  # isr
            r.int32_array()  # offline
            partitions[index] = (leader, replicas)
        r.take(">i")  # topic authorized operations
        topics[name] = (error, partitions)
    return sorted(brokers), topics


def partition_of(bootstrap, topic, partition):
    _, topics = metadata(bootstrap, [topic])
    error, partitions = topics.get(topic, (3, {}))
    if error != 0 or int(partition) not in partitions:
        raise SystemExit(f"topic '{topic}' partition {partition} not found (error {error})")
    return partitions[int(partition)]


def main(argv):
    if len(argv) < 2:
        raise SystemExit(__doc__)
    command = argv[1]
    if command == "port-open":
        host, port = argv[2].rsplit(":", 1)
        try:
            socket.create_connection((host, int(port)), timeout=0.5).close()
            return 0
        except OSError:
            return 1
    if command == "brokers":
        brokers, _ = metadata(argv[2], [])
        print(" ".join(str(b) for b in brokers))
    elif command == "replicas":
        print(",".join(str(r) for r in partition_of(argv[2], argv[3], argv[4])[1]))
    elif command == "leader":
        print(partition_of(argv[2], argv[3], argv[4])[0])
    elif command == "create-topics":
        prefix, count = argv[3], int(argv[4])
        width = max(2, len(str(count)))
        names = [f"{prefix}-{i:0{width}d}" for i in range(1, count + 1)]
        failed = create_topics(argv[2], names, int(argv[5]), int(argv[6]))
        for name, (error, message) in sorted(failed.items()):
            print(f"topic '{name}': error {error}: {message}", file=sys.stderr)
        return 1 if failed else 0
    else:
        raise SystemExit(__doc__)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
