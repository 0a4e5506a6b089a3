package io.recrawl.wire;

/**
 * The outcome of parsing one input: either a valid value or a dead letter. Parsing never throws.
 *
 * @param <T> the parsed type
 */
public sealed interface Parsed<T> permits Parsed.Ok, Parsed.Rejected {

  /** True for a valid value. */
  boolean ok();

  /** The value; throws for a rejected input. */
  T value();

  /** The dead letter; throws for a valid value. */
  DeadLetter deadLetter();

  static <T> Parsed<T> ok(T value) {
    return new Ok<>(value);
  }

  static <T> Parsed<T> rejected(DeadLetter deadLetter) {
    return new Rejected<>(deadLetter);
  }

  /** A valid value. */
  record Ok<T>(T value) implements Parsed<T> {
    @Override
    public boolean ok() {
      return true;
    }

    @Override
    public DeadLetter deadLetter() {
      throw new IllegalStateException("not rejected");
    }
  }

  /** A rejected input. */
  record Rejected<T>(DeadLetter deadLetter) implements Parsed<T> {
    @Override
    public boolean ok() {
      return false;
    }

    @Override
    public T value() {
      throw new IllegalStateException("rejected: " + deadLetter.reason());
    }
  }
}
