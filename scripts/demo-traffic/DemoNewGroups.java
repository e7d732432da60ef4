// The demo's share group (KIP-932) and streams group (KIP-1071), Kafka 4.2+.
// Compiled only when the cached jars have KafkaShareConsumer and Kafka Streams
// (scripts/demo checks), and started by DemoTraffic through reflection, so the
// rest of the demo still runs on older versions.

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;

public final class DemoNewGroups {
    private DemoNewGroups() {}

    /** Start both on `pool`; they stop with the JVM. */
    public static void start(String bootstrap, ExecutorService pool) {
        pool.submit(() -> shareWorkers(bootstrap));
        pool.submit(() -> orderStats(bootstrap));
    }

    /** Share group `email-workers` reading `notifications` like a queue, acknowledging as it goes. */
    static Void shareWorkers(String bootstrap) {
        Properties p = new Properties();
        p.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put("group.id", "email-workers");
        p.put("client.id", "email-worker-1");
        while (true) {
            try (KafkaShareConsumer<byte[], byte[]> c =
                     new KafkaShareConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
                c.subscribe(List.of("notifications"));
                while (true) {
                    ConsumerRecords<byte[], byte[]> records = c.poll(Duration.ofMillis(500));
                    if (!records.isEmpty()) Thread.sleep(300); // some work per batch
                }
            } catch (InterruptedException e) {
                return null;
            } catch (Exception e) {
                System.err.println("share consumer restarting after: " + e.getMessage());
                try { Thread.sleep(2000); } catch (InterruptedException ignored) { return null; }
            }
        }
    }

    /** Streams group `order-stats`: orders counted per key, through a repartition topic and a store. */
    static Void orderStats(String bootstrap) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "order-stats");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put("group.protocol", "streams");
        p.put(StreamsConfig.STATE_DIR_CONFIG,
            System.getProperty("demo.state.dir", System.getProperty("java.io.tmpdir") + "/kscope-demo-streams"));
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "1000");
        try (org.apache.kafka.clients.admin.Admin admin = org.apache.kafka.clients.admin.Admin.create(
                 java.util.Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new org.apache.kafka.clients.admin.NewTopic(
                "order-stats-output", java.util.Optional.of(3), java.util.Optional.empty()))).all().get();
        } catch (Exception e) {
            // It exists from an earlier run, or the app's producer creates it.
        }
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("orders", Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()))
            .selectKey((k, v) -> v == null || v.length == 0 ? "empty" : "len-" + (v.length / 100))
            .groupByKey(org.apache.kafka.streams.kstream.Grouped.with(Serdes.String(), Serdes.ByteArray()))
            .count()
            .toStream()
            .to("order-stats-output", Produced.with(Serdes.String(), Serdes.Long()));
        KafkaStreams streams = new KafkaStreams(builder.build(), p);
        Runtime.getRuntime().addShutdownHook(new Thread(streams::close));
        streams.start();
        return null;
    }
}
