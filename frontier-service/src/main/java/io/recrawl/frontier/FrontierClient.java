package io.recrawl.frontier;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.DiscoveredURLItem;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.KnownURLItem;
import crawlercommons.urlfrontier.Urlfrontier.StringList;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import io.grpc.Channel;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A URL Frontier client as a crawler uses one, over a gRPC channel: what the tests and {@code
 * bin/recrawl bench frontier} drive the service with.
 */
final class FrontierClient {

  private final Channel channel;

  FrontierClient(EmbeddedFrontier frontier) {
    this(frontier.channel);
  }

  FrontierClient(Channel channel) {
    this.channel = channel;
  }

  URLFrontierGrpc.URLFrontierBlockingStub blocking() {
    return URLFrontierGrpc.newBlockingStub(channel);
  }

  /** A discovered item of {@code crawl}. */
  static URLItem discovered(String crawl, String url) {
    return URLItem.newBuilder()
        .setDiscovered(
            DiscoveredURLItem.newBuilder()
                .setInfo(URLInfo.newBuilder().setUrl(url).setCrawlID(crawl).build()))
        .build();
  }

  static URLItem discovered(String url) {
    return URLItem.newBuilder()
        .setDiscovered(
            DiscoveredURLItem.newBuilder().setInfo(URLInfo.newBuilder().setUrl(url).build()))
        .build();
  }

  static URLItem known(String url, long refetchSeconds, Map<String, String> metadata) {
    URLInfo.Builder info = URLInfo.newBuilder().setUrl(url);
    metadata.forEach((k, v) -> info.putMetadata(k, StringList.newBuilder().addValues(v).build()));
    return URLItem.newBuilder()
        .setKnown(KnownURLItem.newBuilder().setInfo(info).setRefetchableFromDate(refetchSeconds))
        .build();
  }

  /** Puts the items in one stream; the acks, in the order they came. */
  List<AckMessage> put(List<URLItem> items) throws InterruptedException {
    return put(items, 1);
  }

  /** Puts the items over {@code streams} streams at once, in turn; the acks, as they came. */
  List<AckMessage> put(List<URLItem> items, int streams) throws InterruptedException {
    int n = Math.max(1, Math.min(streams, items.size()));
    List<AckMessage> acks = new ArrayList<>();
    CountDownLatch done = new CountDownLatch(n);
    List<StreamObserver<URLItem>> ins = new ArrayList<>();
    for (int s = 0; s < n; s++) {
      ins.add(
          URLFrontierGrpc.newStub(channel)
              .putURLs(
                  new StreamObserver<>() {
                    @Override
                    public void onNext(AckMessage a) {
                      synchronized (acks) {
                        acks.add(a);
                      }
                    }

                    @Override
                    public void onError(Throwable t) {
                      done.countDown();
                    }

                    @Override
                    public void onCompleted() {
                      done.countDown();
                    }
                  }));
    }
    for (int i = 0; i < items.size(); i++) {
      ins.get(i % n).onNext(items.get(i));
    }
    ins.forEach(StreamObserver::onCompleted);
    if (!done.await(10, TimeUnit.MINUTES)) {
      throw new IllegalStateException("PutURLs did not complete");
    }
    synchronized (acks) {
      return List.copyOf(acks);
    }
  }

  /** The URLs a GetURLs returns. */
  List<URLInfo> get(GetParams params) {
    List<URLInfo> out = new ArrayList<>();
    for (Iterator<URLInfo> it = blocking().getURLs(params); it.hasNext(); ) {
      out.add(it.next());
    }
    return out;
  }

  /** GetURLs until one returns something, or {@code timeoutMs} passes. */
  List<URLInfo> getSoon(GetParams params, long timeoutMs) {
    long end = System.currentTimeMillis() + timeoutMs;
    List<URLInfo> out = get(params);
    while (out.isEmpty() && System.currentTimeMillis() < end) {
      out = get(params);
    }
    return out;
  }
}
