// Seeds the demo cluster with a realistic picture and keeps it moving: topics of
// different shapes, keyed JSON, plain-text and binary records, a topic per
// compression codec, transactions (one aborted), tombstones on a compacted topic,
// records with headers, light continuous produce
// traffic, consumer groups of both protocols (classic and KIP-848 consumer) in
// the states a user meets in production, and a leader move every ~30 s.
//
//   java -cp "KAFKA_LIBS/*:CLASSES" DemoTraffic BOOTSTRAP seed   (create topics, records, idle groups; exit)
//   java -cp "KAFKA_LIBS/*:CLASSES" DemoTraffic BOOTSTRAP run    (live groups, traffic, leader moves; forever)
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
        if (args.length != 2) {
            System.err.println("usage: DemoTraffic BOOTSTRAP seed|run");
            System.exit(2);
        }
        String bootstrap = args[0];
        if (args[1].equals("seed")) {
            seed(bootstrap);
        } else {
            run(bootstrap);
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
            awaitLeaders(admin);
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
    static void awaitLeaders(Admin admin) throws Exception {
        List<String> names = TOPICS.stream().map(Spec::name).toList();
        long deadline = System.currentTimeMillis() + 60_000;
        while (System.currentTimeMillis() < deadline) {
            Map<TopicPartition, OffsetSpec> request = new HashMap<>();
            boolean leaders = true;
            for (TopicDescription d : admin.describeTopics(names).allTopicNames().get().values()) {
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
        Runtime.getRuntime().addShutdownHook(new Thread(() -> running = false));
        moveLeadersForever(bootstrap);
    }

    static Void produceForever(String bootstrap) {
        try (KafkaProducer<byte[], byte[]> producer = producer(bootstrap, "producer")) {
            long i = 0;
            List<String> live = List.of("orders", "payments", "clickstream", "clickstream", "clickstream",
                "inventory", "notifications", "sensor-readings", "sessions", "audit-log");
            while (running) {
                for (String topic : live) {
                    producer.send(record(topic, i), (m, e) -> {});
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
}
