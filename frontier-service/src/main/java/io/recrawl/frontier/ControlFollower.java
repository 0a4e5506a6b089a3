package io.recrawl.frontier;

import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.ControlMessageCodec;
import io.recrawl.wire.Parsed;
import io.recrawl.wire.StateQuery;

/**
 * Follows the control topic for the blocks and deletions any instance of the service asks of the
 * job, and applies them to this instance's outbox too: a queue's URLs are handed out by the
 * instance that reads its partition of the requests, which need not be the one a client asked. The
 * job holds its own releases; this holds what it released before and this instance has yet to hand
 * out.
 */
final class ControlFollower implements AutoCloseable {

  private final ReleasedUrls released;
  private final JobQueries queries;
  private final ControlMessageCodec codec;
  private final TopicReader reader;

  ControlFollower(FrontierSettings settings, ReleasedUrls released, JobQueries queries) {
    this.released = released;
    this.queries = queries;
    this.codec = new ControlMessageCodec(settings.partitionMode(), -1);
    // From the end as of now: a later change is not missed.
    this.reader =
        TopicReader.fromEnd(
            settings.bootstrapServers(),
            settings.controlTopic(),
            "recrawl-frontier-control",
            this::read);
  }

  private void read(String json) {
    Parsed<ControlMessage> m = codec.parse(json, System.currentTimeMillis());
    if (!m.ok() || m.value().kind() != ControlMessage.Kind.QUERY) {
      return; // not this instance's to check: the job dead-letters a bad one
    }
    StateQuery q = m.value().query();
    if (queries.sentHere(q.id())) {
      return; // the service applied its own before it sent it
    }
    switch (q.op()) {
      case BLOCK_HOST -> released.block(q.host(), q.until());
      case DELETE_HOST, DELETE_CRAWL -> {
        released.deleting(q.crawl(), q.host(), q.time());
        queries.follow(
            q.id(), answers -> released.deleted(q.crawl(), q.host(), JobQueries.asOf(answers)));
      }
      default -> {} // a question, not a change
    }
  }

  @Override
  public void close() {
    reader.close();
  }
}
