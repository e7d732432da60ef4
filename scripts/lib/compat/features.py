"""The compat suite's columns, in table order (read by suite.py and table.py)."""

CODECS = ["none", "gzip", "snappy", "lz4", "zstd"]
FEATURES = (["brokers", "topics", "partitions", "group-classic", "group-consumer"]
            + ["consume-" + c for c in CODECS]
            + ["watch-leaders", "topic-config", "group-config", "log-dir-sizes", "quorum", "cluster", "tui"])
