// Seeds the demo cluster with a realistic picture and keeps it moving: topics of
// different shapes, keyed JSON, plain-text and binary records, a topic per
// compression codec, transactions (one aborted), tombstones on a compacted topic,
// records with headers, light continuous produce
// traffic, consumer groups of both protocols (classic and KIP-848 consumer) in
// the states a user meets in production, and a leader move every ~30 s.
// With KSCOPE_SCHEMA_REGISTRY set (a Confluent-compatible registry URL), also
// an Avro, a Protobuf and a JSON Schema subject and Confluent-framed records
// of each (class Schemas below).
//
//   java -cp "KAFKA_LIBS/*:CLASSES" DemoTraffic BOOTSTRAP seed   (create topics, records, idle groups; exit)
//   java -cp "KAFKA_LIBS/*:CLASSES" DemoTraffic BOOTSTRAP run    (live groups, traffic, leader moves; forever)
//   java -cp "KAFKA_LIBS/*:CLASSES" DemoTraffic BOOTSTRAP schemas [PREFIX]
//                                  (only the schema topics, PREFIX before their names; exit)
//
// Demo tooling only: kscope itself never produces, joins groups or commits.

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.*;
import java.util.concurrent.*;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.*;
import org.apache.kafka.clients.consumer.*;
import org.apache.kafka.clients.producer.*;
import org.apache.kafka.common.*;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.serialization.*;

public final class DemoTraffic {
    record Spec(String name, int partitions, short rf, Map<String, String> configs) {}

    static final List<Spec> TOPICS = List.of(
        new Spec("orders", 12, (short) 3, Map.of()),
        new Spec("payments", 6, (short) 3, Map.of("min.insync.replicas", "2")),
        new Spec("customers", 3, (short) 3, Map.of("cleanup.policy", "compact")),
        new Spec("clickstream", 120, (short) 3, Map.of("retention.ms", "3600000")),
        new Spec("audit-log", 3, (short) 1, Map.of()),
        new Spec("inventory", 6, (short) 3, Map.of()),
        new Spec("shipments", 4, (short) 3, Map.of()),
        new Spec("notifications", 2, (short) 3, Map.of()),
        new Spec("sensor-readings", 4, (short) 3, Map.of("compression.type", "lz4")),
        new Spec("sessions", 8, (short) 3, Map.of("retention.ms", "600000")),
        new Spec("fraud-alerts", 1, (short) 3, Map.of()),
        new Spec("orders.dlq", 1, (short) 2, Map.of()),
        // What the Messages screen shows off: one topic per codec, and transactions.
        new Spec("codec-none", 3, (short) 3, Map.of()),
        new Spec("codec-gzip", 3, (short) 3, Map.of()),
        new Spec("codec-snappy", 3, (short) 3, Map.of()),
        new Spec("codec-lz4", 3, (short) 3, Map.of()),
        new Spec("codec-zstd", 3, (short) 3, Map.of()),
        new Spec("ledger", 3, (short) 3, Map.of()));

    static final List<String> CODECS = List.of("none", "gzip", "snappy", "lz4", "zstd");

    static final Random RANDOM = new Random();
    static volatile boolean running = true;

    public static void main(String[] args) throws Exception {
        if (args.length < 2 || args.length > 3 || (args.length == 3 && !args[1].equals("schemas"))) {
            System.err.println("usage: DemoTraffic BOOTSTRAP seed|run|schemas [PREFIX]");
            System.exit(2);
        }
        String bootstrap = args[0];
        switch (args[1]) {
            case "seed" -> {
                seed(bootstrap);
                Schemas schemas = Schemas.fromEnv("");
                if (schemas != null) schemas.seed(bootstrap, 200);
            }
            case "schemas" -> {
                Schemas schemas = Schemas.fromEnv(args.length == 3 ? args[2] : "");
                if (schemas == null) {
                    System.err.println("DemoTraffic schemas: KSCOPE_SCHEMA_REGISTRY is not set");
                    System.exit(2);
                }
                schemas.seed(bootstrap, 50);
            }
            default -> run(bootstrap);
        }
    }

    static void log(String message) {
        System.out.println("demo: " + message);
        System.out.flush();
    }

    static Properties common(String bootstrap) {
        Properties p = new Properties();
        p.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put("client.id", "kscope-demo");
        return p;
    }

    static void seed(String bootstrap) throws Exception {
        try (Admin admin = Admin.create(common(bootstrap))) {
            List<NewTopic> topics = new ArrayList<>();
            for (Spec s : TOPICS) {
                topics.add(new NewTopic(s.name(), s.partitions(), s.rf()).configs(s.configs()));
            }
            for (var entry : admin.createTopics(topics).values().entrySet()) {
                try {
                    entry.getValue().get();
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) throw e;
                }
            }
            awaitLeaders(admin, TOPICS.stream().map(Spec::name).toList());
            log("created " + TOPICS.size() + " topics");
            seedConfigsAndQuotas(admin);
            log("set dynamic configs (topic orders, broker 1, cluster default) and client quotas");
        }
        try (KafkaProducer<byte[], byte[]> producer = producer(bootstrap, "producer")) {
            for (Spec s : TOPICS) {
                if (s.name().startsWith("codec-") || s.name().equals("ledger")) continue;
                int count = s.name().equals("clickstream") ? 6000 : 600;
                for (int i = 0; i < count; i++) {
                    producer.send(record(s.name(), i));
                }
            }
            // Tombstones: a compacted topic's deleted keys (null values).
            for (int i = 0; i < 10; i++) {
                producer.send(new ProducerRecord<>("customers", ("customer-" + (i * 5)).getBytes(StandardCharsets.UTF_8), null));
            }
            producer.flush();
            log("produced seed records (JSON, text, binary, headers, tombstones)");
        }
        for (String codec : CODECS) {
            try (KafkaProducer<byte[], byte[]> producer = producer(bootstrap, codec)) {
                for (int i = 0; i < 300; i++) {
                    producer.send(record("codec-" + codec, i));
                }
                producer.flush();
            }
        }
        log("produced one topic per codec (" + String.join(", ", CODECS) + ")");
        seedTransactions(bootstrap);
        log("produced transactions on ledger (4 committed, 1 aborted)");
        // Idle groups with known lag: they consumed part of a topic and went away.
        commitIdle(bootstrap, "analytics-batch", "classic", "orders", 150);
        commitIdle(bootstrap, "inventory-sync", "consumer", "inventory", 200);
        commitIdle(bootstrap, "legacy-reports", "classic", "shipments", 50);
        log("idle groups committed (analytics-batch, legacy-reports: classic; inventory-sync: consumer)");
    }

    /**
     * What the config and quota screens show off: dynamic configs at each level (a topic's
     * own, one broker's, the cluster-wide broker default) and client quotas for a user and a
     * client id. None of them slows the demo's own traffic.
     */
    static void seedConfigsAndQuotas(Admin admin) throws Exception {
        var orders = new ConfigResource(ConfigResource.Type.TOPIC, "orders");
        var broker = new ConfigResource(ConfigResource.Type.BROKER, "1");
        var defaults = new ConfigResource(ConfigResource.Type.BROKER, "");
        admin.incrementalAlterConfigs(Map.of(
                orders, List.of(set("retention.ms", "172800000"), set("max.message.bytes", "2097152")),
                broker, List.of(set("message.max.bytes", "2097152")),
                defaults, List.of(set("log.cleaner.backoff.ms", "20000"))))
            .all().get();
        admin.alterClientQuotas(List.of(
                new ClientQuotaAlteration(
                    new ClientQuotaEntity(Map.of(ClientQuotaEntity.USER, "alice")),
                    List.of(new ClientQuotaAlteration.Op("producer_byte_rate", 1048576.0),
                        new ClientQuotaAlteration.Op("consumer_byte_rate", 2097152.0))),
                new ClientQuotaAlteration(
                    new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, "reporting")),
                    List.of(new ClientQuotaAlteration.Op("request_percentage", 50.0)))))
            .all().get();
    }

    static AlterConfigOp set(String name, String value) {
        return new AlterConfigOp(new ConfigEntry(name, value), AlterConfigOp.OpType.SET);
    }

    /**
     * Wait until every partition of the demo topics has a leader that answers for it. A
     * producer started the moment CreateTopics returns meets leaders that have not applied
     * the new partitions yet (NOT_LEADER_OR_FOLLOWER), and an idempotent producer with
     * several batches in flight then retries OUT_OF_ORDER_SEQUENCE_NUMBER for minutes.
     */
    static void awaitLeaders(Admin admin, List<String> names) throws Exception {
        long deadline = System.currentTimeMillis() + 60_000;
        while (System.currentTimeMillis() < deadline) {
            Map<TopicPartition, OffsetSpec> request = new HashMap<>();
            boolean leaders = true;
            Map<String, TopicDescription> described;
            try {
                described = admin.describeTopics(names).allTopicNames().get();
            } catch (ExecutionException e) {
                // the broker asked has not seen the new topics yet (UNKNOWN_TOPIC_OR_PARTITION)
                Thread.sleep(200);
                continue;
            }
            for (TopicDescription d : described.values()) {
                for (TopicPartitionInfo p : d.partitions()) {
                    leaders &= p.leader() != null && !p.leader().isEmpty();
                    request.put(new TopicPartition(d.name(), p.partition()), OffsetSpec.latest());
                }
            }
            // ListOffsets goes to each partition's leader: it answers once the leader has the partition.
            if (leaders) {
                try {
                    admin.listOffsets(request).all().get();
                    return;
                } catch (ExecutionException e) {
                    // not every leader knows its partitions yet
                }
            }
            Thread.sleep(200);
        }
        log("some partitions still have no leader after 60 s; producing anyway");
    }

    /** Four committed transactions and one aborted one, so read_committed has something to hide. */
    static void seedTransactions(String bootstrap) throws Exception {
        Properties p = common(bootstrap);
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "kscope-demo-ledger");
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "kscope-demo-ledger");
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.initTransactions();
            for (int t = 0; t < 5; t++) {
                boolean abort = t == 3;
                producer.beginTransaction();
                for (int i = 0; i < 20; i++) {
                    String key = "account-" + (i % 7);
                    String value = String.format(
                        "{\"transaction\":%d,\"entry\":%d,\"account\":\"%s\",\"amount\":%.2f,\"note\":\"%s\"}",
                        t, i, key, RANDOM.nextDouble() * 100, abort ? "aborted: never visible under read_committed" : "committed");
                    producer.send(new ProducerRecord<>("ledger", key.getBytes(StandardCharsets.UTF_8),
                        value.getBytes(StandardCharsets.UTF_8)));
                }
                if (abort) {
                    producer.flush();
                    producer.abortTransaction();
                } else {
                    producer.commitTransaction();
                }
            }
        }
    }

    static ProducerRecord<byte[], byte[]> record(String topic, long i) {
        if (topic.equals("sensor-readings")) {
            byte[] value = new byte[24];
            RANDOM.nextBytes(value);
            return new ProducerRecord<>(topic, ("sensor-" + (i % 40)).getBytes(StandardCharsets.UTF_8), value);
        }
        if (topic.equals("notifications")) {
            String text = List.of("Your order has shipped", "Password changed", "Weekly digest is ready",
                "Payment received — thank you", "Delivery delayed by weather").get(RANDOM.nextInt(5));
            return new ProducerRecord<>(topic, ("user-" + (i % 90)).getBytes(StandardCharsets.UTF_8),
                (text + " (#" + i + ")").getBytes(StandardCharsets.UTF_8));
        }
        String key = switch (topic) {
            case "customers" -> "customer-" + (i % 50);
            case "clickstream", "sessions" -> "session-" + (i % 500);
            default -> topic + "-" + (i % 200);
        };
        String value = String.format(
            "{\"id\":%d,\"topic\":\"%s\",\"at\":\"%s\",\"amount\":%.2f,\"status\":\"%s\"}",
            i, topic, Instant.now(), RANDOM.nextDouble() * 500,
            List.of("new", "paid", "shipped", "cancelled").get(RANDOM.nextInt(4)));
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(
            topic, key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8));
        if (topic.equals("orders") || topic.equals("payments")) {
            record.headers().add("trace-id", String.format("%016x", RANDOM.nextLong()).getBytes(StandardCharsets.UTF_8));
            record.headers().add("source", "checkout-api".getBytes(StandardCharsets.UTF_8));
        }
        return record;
    }

    /** An idempotent producer; `codec` is a compression.type ("producer" keeps the default). */
    static KafkaProducer<byte[], byte[]> producer(String bootstrap, String codec) {
        Properties p = common(bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "20");
        if (!codec.equals("producer")) p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, codec);
        return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }

    static KafkaConsumer<byte[], byte[]> consumer(String bootstrap, String group, String protocol, int maxPoll) {
        Properties p = common(bootstrap);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        p.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, protocol);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, String.valueOf(maxPoll));
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, group + "-" + protocol);
        return new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** Consume up to `perPartition` records of every partition, commit exactly that, and leave. */
    static void commitIdle(String bootstrap, String group, String protocol, String topic, long perPartition) {
        try (KafkaConsumer<byte[], byte[]> c = consumer(bootstrap, group, protocol, 500)) {
            c.subscribe(List.of(topic));
            long deadline = System.currentTimeMillis() + 60_000;
            while (c.assignment().isEmpty() && System.currentTimeMillis() < deadline) {
                c.poll(Duration.ofMillis(200));
            }
            Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
            for (TopicPartition tp : c.assignment()) {
                offsets.put(tp, new OffsetAndMetadata(perPartition));
            }
            c.commitSync(offsets);
        }
    }

    static void run(String bootstrap) throws Exception {
        ExecutorService pool = Executors.newCachedThreadPool();
        // Live, Stable groups of both protocols, keeping up with their topics.
        pool.submit(() -> liveConsumer(bootstrap, "order-processor", "consumer", "orders", 500, 0));
        pool.submit(() -> liveConsumer(bootstrap, "billing-service", "classic", "payments", 500, 0));
        pool.submit(() -> liveConsumer(bootstrap, "notification-sender", "consumer", "notifications", 500, 0));
        // A slow consumer: one record per poll with a pause, so its lag grows.
        pool.submit(() -> liveConsumer(bootstrap, "clickstream-archiver", "consumer", "clickstream", 1, 1000));
        pool.submit(() -> produceForever(bootstrap));
        // A share group and a streams group where the broker and jars have them (4.2+).
        try {
            Class.forName("DemoNewGroups")
                .getMethod("start", String.class, ExecutorService.class)
                .invoke(null, bootstrap, pool);
        } catch (ClassNotFoundException e) {
            log("share and streams groups off: they need Kafka 4.2+ jars");
        } catch (Exception e) {
            log("share and streams groups off: " + e);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> running = false));
        moveLeadersForever(bootstrap);
    }

    static Void produceForever(String bootstrap) {
        Schemas schemas = null;
        try {
            schemas = Schemas.fromEnv("");
            if (schemas != null) schemas.register();
        } catch (Exception e) {
            log("schema traffic off: " + e.getMessage());
            schemas = null;
        }
        try (KafkaProducer<byte[], byte[]> producer = producer(bootstrap, "producer")) {
            long i = 0;
            List<String> live = List.of("orders", "payments", "clickstream", "clickstream", "clickstream",
                "inventory", "notifications", "sensor-readings", "sessions", "audit-log");
            while (running) {
                for (String topic : live) {
                    producer.send(record(topic, i), (m, e) -> {});
                }
                if (schemas != null && i % 5 == 0) {
                    // Live numbers start past the seeded ones.
                    for (ProducerRecord<byte[], byte[]> r : schemas.records(1000 + i / 5)) producer.send(r, (m, e) -> {});
                }
                i++;
                Thread.sleep(200);
            }
        } catch (Exception e) {
            log("producer stopped: " + e);
        }
        return null;
    }

    static Void liveConsumer(String bootstrap, String group, String protocol, String topic, int maxPoll, long pauseMs) {
        while (running) {
            try (KafkaConsumer<byte[], byte[]> c = consumer(bootstrap, group, protocol, maxPoll)) {
                c.subscribe(List.of(topic));
                while (running) {
                    if (!c.poll(Duration.ofMillis(500)).isEmpty()) {
                        c.commitAsync();
                    }
                    if (pauseMs > 0) Thread.sleep(pauseMs);
                }
            } catch (Exception e) {
                log("consumer " + group + " restarting after: " + e.getMessage());
                try { Thread.sleep(2000); } catch (InterruptedException ignored) { return null; }
            }
        }
        return null;
    }

    /** Every ~30 s rotate one partition's replica list and elect the new preferred leader. */
    static void moveLeadersForever(String bootstrap) throws InterruptedException {
        List<String> movable = List.of("orders", "payments", "inventory", "shipments");
        while (running) {
            Thread.sleep(30_000);
            try (Admin admin = Admin.create(common(bootstrap))) {
                String topic = movable.get(RANDOM.nextInt(movable.size()));
                TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
                TopicPartitionInfo p = d.partitions().get(RANDOM.nextInt(d.partitions().size()));
                List<Integer> replicas = new ArrayList<>(p.replicas().stream().map(Node::id).toList());
                if (replicas.size() < 2) continue;
                Collections.rotate(replicas, -1);
                TopicPartition tp = new TopicPartition(topic, p.partition());
                admin.alterPartitionReassignments(
                    Map.of(tp, Optional.of(new NewPartitionReassignment(replicas)))).all().get();
                long deadline = System.currentTimeMillis() + 20_000;
                while (!admin.listPartitionReassignments(Set.of(tp)).reassignments().get().isEmpty()
                        && System.currentTimeMillis() < deadline) {
                    Thread.sleep(200);
                }
                admin.electLeaders(ElectionType.PREFERRED, Set.of(tp)).all().get();
                log("moved leader of " + tp + " to broker " + replicas.get(0));
            } catch (Exception e) {
                log("leader move skipped: " + e.getMessage());
            }
        }
    }

    /**
     * The schema-registry part of the demo: an Avro, a Protobuf and a JSON Schema subject
     * (TopicNameStrategy: TOPIC-value) registered through the Confluent API, and values framed
     * the way Confluent's serializers frame them: magic byte 0, the 4-byte big-endian schema
     * id, for Protobuf the message-index list (a single 0 byte: the first message), then the
     * payload. Avro and Protobuf are encoded by hand here: neither library is on Kafka's
     * classpath. Records are a function of their number, so a test can know what decodes.
     */
    static final class Schemas {
        static final String AVRO_TOPIC = "orders-avro";
        static final String PROTOBUF_TOPIC = "payments-protobuf";
        static final String JSON_TOPIC = "users-jsonschema";
        static final String[] STATUS = {"NEW", "PAID", "SHIPPED", "CANCELLED"};
        static final String[] PLANS = {"free", "team", "enterprise"};
        static final String[] CURRENCIES = {"EUR", "USD", "GBP"};
        static final long EPOCH_MS = 1_767_225_600_000L; // 2026-01-01T00:00:00Z

        static final String AVRO = """
            {"type": "record", "name": "Order", "namespace": "demo", "fields": [
              {"name": "id", "type": "long"},
              {"name": "order_id", "type": {"type": "string", "logicalType": "uuid"}},
              {"name": "customer", "type": "string"},
              {"name": "amount", "type": "double"},
              {"name": "status", "type": {"type": "enum", "name": "Status",
                "symbols": ["NEW", "PAID", "SHIPPED", "CANCELLED"]}},
              {"name": "placed_at", "type": {"type": "long", "logicalType": "timestamp-millis"}},
              {"name": "coupon", "type": ["null", "string"], "default": null}
            ]}""";

        static final String PROTOBUF = """
            syntax = "proto3";
            package demo;

            message Payment {
              string id = 1;
              string order_id = 2;
              int64 amount_cents = 3;
              string currency = 4;
              Method method = 5;
              bool captured = 6;

              enum Method {
                METHOD_UNSPECIFIED = 0;
                CARD = 1;
                TRANSFER = 2;
                WALLET = 3;
              }
            }
            """;

        static final String JSON = """
            {"$schema": "http://json-schema.org/draft-07/schema#", "title": "User", "type": "object",
             "properties": {"id": {"type": "integer"}, "name": {"type": "string"},
               "email": {"type": "string"}, "plan": {"enum": ["free", "team", "enterprise"]},
               "active": {"type": "boolean"}},
             "required": ["id", "name", "plan"]}""";

        final String registry;
        final String prefix;
        int avroId;
        int protobufId;
        int jsonId;

        Schemas(String registry, String prefix) {
            this.registry = registry;
            this.prefix = prefix;
        }

        /** The registry from KSCOPE_SCHEMA_REGISTRY, or null when it is not set. */
        static Schemas fromEnv(String prefix) {
            String url = System.getenv("KSCOPE_SCHEMA_REGISTRY");
            if (url == null || url.isBlank()) return null;
            return new Schemas(url.replaceAll("/+$", ""), prefix);
        }

        List<String> topics() {
            return List.of(prefix + AVRO_TOPIC, prefix + PROTOBUF_TOPIC, prefix + JSON_TOPIC);
        }

        /** Register the three subjects (registering an existing schema again returns its id). */
        void register() throws Exception {
            avroId = register(prefix + AVRO_TOPIC + "-value", AVRO, null);
            protobufId = register(prefix + PROTOBUF_TOPIC + "-value", PROTOBUF, "PROTOBUF");
            jsonId = register(prefix + JSON_TOPIC + "-value", JSON, "JSON");
        }

        int register(String subject, String schema, String type) throws Exception {
            String body = "{\"schema\":" + quote(schema)
                + (type == null ? "" : ",\"schemaType\":\"" + type + "\"") + "}";
            java.net.http.HttpRequest request = java.net.http.HttpRequest
                .newBuilder(java.net.URI.create(registry + "/subjects/" + subject + "/versions"))
                .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                .timeout(Duration.ofSeconds(20))
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body))
                .build();
            java.net.http.HttpResponse<String> response = java.net.http.HttpClient.newHttpClient()
                .send(request, java.net.http.HttpResponse.BodyHandlers.ofString());
            var id = java.util.regex.Pattern.compile("\"id\"\\s*:\\s*(\\d+)").matcher(response.body());
            if (response.statusCode() != 200 || !id.find()) {
                throw new IllegalStateException("registering " + subject + " at " + registry + ": HTTP "
                    + response.statusCode() + " " + response.body());
            }
            return Integer.parseInt(id.group(1));
        }

        /** Register, create the three topics and produce `count` records to each. */
        void seed(String bootstrap, int count) throws Exception {
            register();
            try (Admin admin = Admin.create(common(bootstrap))) {
                List<NewTopic> topics = new ArrayList<>();
                for (String topic : topics()) topics.add(new NewTopic(topic, 3, (short) 3));
                for (var entry : admin.createTopics(topics).values().entrySet()) {
                    try {
                        entry.getValue().get();
                    } catch (ExecutionException e) {
                        if (!(e.getCause() instanceof TopicExistsException)) throw e;
                    }
                }
                awaitLeaders(admin, topics());
            }
            try (KafkaProducer<byte[], byte[]> producer = producer(bootstrap, "producer")) {
                for (long i = 0; i < count; i++) {
                    for (ProducerRecord<byte[], byte[]> r : records(i)) producer.send(r);
                }
                producer.flush();
            }
            log("registered " + String.join(", ", topics()) + " (-value subjects: Avro id " + avroId
                + ", Protobuf id " + protobufId + ", JSON Schema id " + jsonId + ") and produced "
                + count + " framed records to each");
        }

        /** Record number `i` of each schema topic. */
        List<ProducerRecord<byte[], byte[]>> records(long i) {
            String order = new UUID(0x5eedL, i).toString();
            return List.of(
                new ProducerRecord<>(prefix + AVRO_TOPIC, utf8("order-" + i), framed(avroId, false, avro(i, order))),
                new ProducerRecord<>(prefix + PROTOBUF_TOPIC, utf8("payment-" + i), framed(protobufId, true, protobuf(i, order))),
                new ProducerRecord<>(prefix + JSON_TOPIC, utf8("user-" + i), framed(jsonId, false, json(i))));
        }

        static byte[] avro(long i, String order) {
            var out = new java.io.ByteArrayOutputStream();
            avroLong(out, i);
            avroString(out, order);
            avroString(out, "customer-" + (i % 50));
            long bits = Double.doubleToLongBits((i * 37 % 50_000) / 100.0);
            for (int b = 0; b < 8; b++) out.write((int) (bits >>> (8 * b)) & 0xff); // little-endian
            avroLong(out, i % STATUS.length); // enum: the symbol's index
            avroLong(out, EPOCH_MS + i * 60_000);
            if (i % 3 == 0) {
                avroLong(out, 1); // union branch 1: string
                avroString(out, "SPRING" + (i % 10));
            } else {
                avroLong(out, 0); // union branch 0: null
            }
            return out.toByteArray();
        }

        static byte[] protobuf(long i, String order) {
            var out = new java.io.ByteArrayOutputStream();
            protoString(out, 1, "payment-" + i);
            protoString(out, 2, order);
            protoVarint(out, 3 << 3);
            protoVarint(out, i * 137 % 90_000 + 100);
            protoString(out, 4, CURRENCIES[(int) (i % CURRENCIES.length)]);
            protoVarint(out, 5 << 3);
            protoVarint(out, 1 + i % 3);
            if (i % 2 == 0) {
                protoVarint(out, 6 << 3);
                protoVarint(out, 1);
            }
            return out.toByteArray();
        }

        static byte[] json(long i) {
            return utf8(String.format(
                "{\"id\":%d,\"name\":\"User %d\",\"email\":\"user%d@example.com\",\"plan\":\"%s\",\"active\":%b}",
                i, i, i, PLANS[(int) (i % PLANS.length)], i % 4 != 0));
        }

        static byte[] framed(int id, boolean protobuf, byte[] payload) {
            var out = new java.io.ByteArrayOutputStream();
            out.write(0);
            for (int shift = 24; shift >= 0; shift -= 8) out.write((id >>> shift) & 0xff);
            if (protobuf) out.write(0); // message indexes [0]: the first message of the schema
            out.writeBytes(payload);
            return out.toByteArray();
        }

        static void avroLong(java.io.ByteArrayOutputStream out, long v) {
            long z = (v << 1) ^ (v >> 63); // zigzag
            while ((z & ~0x7fL) != 0) {
                out.write((int) ((z & 0x7f) | 0x80));
                z >>>= 7;
            }
            out.write((int) z);
        }

        static void avroString(java.io.ByteArrayOutputStream out, String s) {
            byte[] bytes = utf8(s);
            avroLong(out, bytes.length);
            out.writeBytes(bytes);
        }

        static void protoVarint(java.io.ByteArrayOutputStream out, long v) {
            while ((v & ~0x7fL) != 0) {
                out.write((int) ((v & 0x7f) | 0x80));
                v >>>= 7;
            }
            out.write((int) v);
        }

        static void protoString(java.io.ByteArrayOutputStream out, int field, String s) {
            byte[] bytes = utf8(s);
            protoVarint(out, (field << 3) | 2);
            protoVarint(out, bytes.length);
            out.writeBytes(bytes);
        }

        static byte[] utf8(String s) {
            return s.getBytes(StandardCharsets.UTF_8);
        }

        static String quote(String s) {
            StringBuilder b = new StringBuilder("\"");
            for (char c : s.toCharArray()) {
                switch (c) {
                    case '"' -> b.append("\\\"");
                    case '\\' -> b.append("\\\\");
                    case '\n' -> b.append("\\n");
                    default -> b.append(c);
                }
            }
            return b.append('"').toString();
        }
    }
}
