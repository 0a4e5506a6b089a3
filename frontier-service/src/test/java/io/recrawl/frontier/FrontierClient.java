package io.recrawl.frontier;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.DiscoveredURLItem;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.KnownURLItem;
import crawlercommons.urlfrontier.Urlfrontier.StringList;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A URL Frontier client over a real gRPC channel, as a crawler would use one. */
final class FrontierClient implements AutoCloseable {

  final ManagedChannel channel;
  final URLFrontierGrpc.URLFrontierBlockingStub blocking;
  final URLFrontierGrpc.URLFrontierStub async;

  FrontierClient(int port) {
    channel = ManagedChannelBuilder.forAddress("localhost", port).usePlaintext().build();
    blocking = URLFrontierGrpc.newBlockingStub(channel);
    async = URLFrontierGrpc.newStub(channel);
  }

  static URLItem discovered(String url, String crawl) {
    return URLItem.newBuilder()
        .setDiscovered(DiscoveredURLItem.newBuilder().setInfo(info(url, crawl, Map.of())))
        .build();
  }

  static URLItem known(String url, String crawl, Map<String, String> metadata, long refetchAt) {
    return URLItem.newBuilder()
        .setKnown(
            KnownURLItem.newBuilder()
                .setInfo(info(url, crawl, metadata))
                .setRefetchableFromDate(refetchAt))
        .build();
  }

  static URLInfo info(String url, String crawl, Map<String, String> metadata) {
    URLInfo.Builder b = URLInfo.newBuilder().setUrl(url).setCrawlID(crawl);
    metadata.forEach((k, v) -> b.putMetadata(k, StringList.newBuilder().addValues(v).build()));
    return b.build();
  }

  /** Sends the items on one PutURLs stream and returns the acks once the stream has ended. */
  List<AckMessage> put(List<URLItem> items) throws Exception {
    List<AckMessage> acks = new ArrayList<>();
    CompletableFuture<List<AckMessage>> done = new CompletableFuture<>();
    StreamObserver<URLItem> in =
        async.putURLs(
            new StreamObserver<>() {
              @Override
              public void onNext(AckMessage a) {
                synchronized (acks) {
                  acks.add(a);
                }
              }

              @Override
              public void onError(Throwable t) {
                done.completeExceptionally(t);
              }

              @Override
              public void onCompleted() {
                done.complete(acks);
              }
            });
    for (URLItem item : items) {
      in.onNext(item);
    }
    in.onCompleted();
    return done.get(60, TimeUnit.SECONDS);
  }

  List<URLInfo> get(GetParams params) {
    List<URLInfo> out = new ArrayList<>();
    Iterator<URLInfo> it = blocking.getURLs(params);
    it.forEachRemaining(out::add);
    return out;
  }

  @Override
  public void close() throws InterruptedException {
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }
}
