package io.recrawl.engine;

/**
 * The part of a {@link EngineContext} that every caller fills alike: the host, its clock and λ_0,
 * fixed for the length of one engine call. What the call sends out (releases, wake-ups, demand) is
 * the subclass's.
 */
public abstract class HostCall implements EngineContext {

  private String host;
  private long now;
  private double globalLambda;

  /** Fixes the host, its clock and λ_0 for the next engine call. */
  protected final void begin(String host, long now, double globalLambda) {
    this.host = host;
    this.now = now;
    this.globalLambda = globalLambda;
  }

  @Override
  public final String host() {
    return host;
  }

  @Override
  public final long now() {
    return now;
  }

  @Override
  public final double globalLambda() {
    return globalLambda;
  }
}
