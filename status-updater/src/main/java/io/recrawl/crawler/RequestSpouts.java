package io.recrawl.crawler;

import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.storm.kafka.spout.FirstPollOffsetStrategy;
import org.apache.storm.kafka.spout.KafkaSpout;
import org.apache.storm.kafka.spout.KafkaSpoutConfig;

/** Builds the storm-kafka-client spout that reads crawl requests, from the crawler's config. */
public final class RequestSpouts {

  private RequestSpouts() {}

  /** The spout's config: at-least-once (an offset is committed once its tuple tree is acked). */
  public static KafkaSpoutConfig<String, String> spoutConfig(CrawlerSettings s) {
    KafkaSpoutConfig.Builder<String, String> b =
        KafkaSpoutConfig.builder(s.bootstrapServers(), s.requestsTopic());
    s.consumerProperties().forEach(b::setProp);
    return b.setProp(ConsumerConfig.GROUP_ID_CONFIG, s.spoutGroupId())
        .setRecordTranslator(new CrawlRequestTranslator())
        .setProcessingGuarantee(KafkaSpoutConfig.ProcessingGuarantee.AT_LEAST_ONCE)
        .setFirstPollOffsetStrategy(FirstPollOffsetStrategy.valueOf(s.spoutFirstPollOffset()))
        .setMaxUncommittedOffsets(s.spoutMaxUncommittedOffsets())
        .setOffsetCommitPeriodMs(s.spoutOffsetCommitPeriodMs())
        .setPollTimeoutMs(s.spoutPollTimeoutMs())
        .build();
  }

  /** The request spout; refuses bad settings with a message that starts with the key. */
  public static KafkaSpout<String, String> fromConf(Map<String, ?> conf) {
    return new KafkaSpout<>(spoutConfig(CrawlerSettings.fromConf(conf)));
  }
}
