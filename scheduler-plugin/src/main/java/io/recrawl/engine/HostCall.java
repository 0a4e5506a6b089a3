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
  private long answeredUntil;
  private long advanceEnd;

  /** Fixes the host, its clock and λ_0 for the next engine call. */
  protected final void begin(String host, long now, double globalLambda) {
    this.host = host;
    this.now = now;
    this.globalLambda = globalLambda;
    this.answeredUntil = now;
    this.advanceEnd = now;
  }

  /**
   * For a call made while time advances in one step from {@code answeredUntil} to {@code
   * advanceEnd} (see {@link EngineContext#answeredUntil}); after {@link #begin}.
   */
  protected final void advancing(long answeredUntil, long advanceEnd) {
    this.answeredUntil = Math.min(now, answeredUntil);
    this.advanceEnd = Math.max(now, advanceEnd);
  }

  @Override
  public final long answeredUntil() {
    return answeredUntil;
  }

  @Override
  public final long advanceEnd() {
    return advanceEnd;
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
