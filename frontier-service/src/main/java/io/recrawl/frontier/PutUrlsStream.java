package io.recrawl.frontier;

import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.recrawl.wire.Parsed;
import io.recrawl.wire.StatusEventCodec;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@code PutURLs} stream: each item becomes a status event on the job's status topic, checked
 * by the job's own codec first. At most {@code putsInFlight} items wait for Kafka at once: the
 * stream asks the client for one more item per ack, so a fast client is held back by gRPC's flow
 * control, and nothing is buffered without bound.
 */
final class PutUrlsStream implements StreamObserver<URLItem> {
  private static final Logger LOG = LoggerFactory.getLogger(PutUrlsStream.class);

  private final ServerCallStreamObserver<AckMessage> acks;
  private final FrontierSettings settings;
  private final CrawlTopics topics;
  private final ReleasedUrls released;
  private final AtomicLong skipped;
  private int pending;
  private boolean completed;

  PutUrlsStream(
      ServerCallStreamObserver<AckMessage> acks,
      FrontierSettings settings,
      CrawlTopics topics,
      ReleasedUrls released,
      AtomicLong skipped) {
    this.acks = acks;
    this.settings = settings;
    this.topics = topics;
    this.released = released;
    this.skipped = skipped;
    acks.disableAutoRequest();
    acks.request(settings.putsInFlight());
  }

  @Override
  public void onNext(URLItem item) {
    String id = item.getID().isEmpty() ? UrlItems.url(item) : item.getID();
    long now = System.currentTimeMillis();
    Parsed<StatusEventCodec.Encoded> checked;
    try {
      checked =
          topics.check(UrlItems.toEvent(item, now, settings.modeOf(UrlItems.crawl(item))), now);
    } catch (IllegalArgumentException bad) {
      skip(id, bad.getMessage());
      return;
    }
    if (!checked.ok()) {
      skip(id, checked.deadLetter().reason() + ": " + checked.deadLetter().detail());
      return;
    }
    if (item.hasKnown()) {
      released.updated(checked.value().event().url());
    }
    synchronized (this) {
      pending++;
    }
    topics.send(
        checked.value(),
        error -> ack(id, error == null ? AckMessage.Status.OK : AckMessage.Status.FAIL));
  }

  private void skip(String id, String why) {
    skipped.incrementAndGet();
    LOG.info("PutURLs item {} skipped: {}", id, why);
    synchronized (this) {
      pending++;
    }
    ack(id, AckMessage.Status.SKIPPED);
  }

  private synchronized void ack(String id, AckMessage.Status status) {
    pending--;
    if (!acks.isCancelled()) {
      acks.onNext(AckMessage.newBuilder().setID(id).setStatus(status).build());
      acks.request(1);
    }
    if (completed && pending == 0 && !acks.isCancelled()) {
      acks.onCompleted();
    }
  }

  @Override
  public void onError(Throwable t) {
    LOG.debug("PutURLs stream ended by the client", t);
  }

  @Override
  public synchronized void onCompleted() {
    completed = true;
    if (pending == 0 && !acks.isCancelled()) {
      acks.onCompleted();
    }
  }
}
