package io.recrawl.flink.scheduler;

import io.recrawl.engine.HostState;
import io.recrawl.engine.HostStore;
import io.recrawl.engine.PageState;
import java.util.Map;

/**
 * A scheduler function whose engine store throws at the {@link #failAt}-th operation of a call: a
 * failure of the engine with its work half done.
 */
final class FailingFunction extends HostSchedulerFunction {
  private static final long serialVersionUID = 1L;
  int failAt = -1;
  boolean failed;

  FailingFunction(Map<String, ?> settings) {
    super(settings, 0.0, false);
  }

  @Override
  HostStore engineStore(FlinkHostStore store) {
    return new FailingStore(store, this);
  }

  void operation() {
    if (failAt >= 0 && failAt-- == 0) {
      failed = true;
      throw new IllegalStateException("injected failure");
    }
  }

  /** Delegates to the call's store, failing where its function says. */
  private record FailingStore(HostStore store, FailingFunction fn) implements HostStore {
    @Override
    public HostState host() {
      fn.operation();
      return store.host();
    }

    @Override
    public void putHost(HostState host) {
      fn.operation();
      store.putHost(host);
    }

    @Override
    public void removeHost() {
      fn.operation();
      store.removeHost();
    }

    @Override
    public PageState page(String url) {
      fn.operation();
      return store.page(url);
    }

    @Override
    public void putPage(String url, PageState page) {
      fn.operation();
      store.putPage(url, page);
    }

    @Override
    public void removePage(String url) {
      fn.operation();
      store.removePage(url);
    }

    @Override
    public String slot(long key) {
      fn.operation();
      return store.slot(key);
    }

    @Override
    public void putSlot(long key, String url) {
      fn.operation();
      store.putSlot(key, url);
    }

    @Override
    public void removeSlot(long key) {
      fn.operation();
      store.removeSlot(key);
    }
  }
}
