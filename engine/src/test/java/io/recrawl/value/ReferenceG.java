package io.recrawl.value;

import java.math.BigDecimal;
import java.math.MathContext;

/**
 * A 100-digit reference for g(x) = 1 - e^(-x)(1 + x) and its inverse, independent of the code under
 * test.
 */
final class ReferenceG {

  static final MathContext MC = new MathContext(100);
  private static final BigDecimal TINY = new BigDecimal("1e-120");

  private ReferenceG() {}

  /**
   * The alternating series sum_{n>=2} (-1)^n (n-1) x^n / n!, exact enough at 100 digits for x <=
   * ~20.
   */
  static BigDecimal gSeries(BigDecimal x) {
    BigDecimal term = x.multiply(x, MC).divide(BigDecimal.valueOf(2), MC); // x^n / n!, n = 2
    BigDecimal sum = term;
    for (int n = 3; n < 2000; n++) {
      term = term.multiply(x, MC).divide(BigDecimal.valueOf(n), MC);
      BigDecimal add = term.multiply(BigDecimal.valueOf(n - 1), MC);
      sum = (n % 2 == 0) ? sum.add(add, MC) : sum.subtract(add, MC);
      if (n > x.doubleValue() * 3 && add.abs().compareTo(sum.abs().multiply(TINY)) < 0) {
        break;
      }
    }
    return sum;
  }

  /** e^x for x >= 0: the series at x / 1024, then ten squarings. */
  static BigDecimal exp(BigDecimal x) {
    BigDecimal r = x.divide(BigDecimal.valueOf(1024), MC);
    BigDecimal term = BigDecimal.ONE;
    BigDecimal sum = BigDecimal.ONE;
    for (int n = 1; n < 500; n++) {
      term = term.multiply(r, MC).divide(BigDecimal.valueOf(n), MC);
      sum = sum.add(term, MC);
      if (term.compareTo(sum.multiply(TINY)) < 0) {
        break;
      }
    }
    for (int i = 0; i < 10; i++) {
      sum = sum.multiply(sum, MC);
    }
    return sum;
  }

  /** The closed form, evaluated at 100 digits; used where the series would need too many terms. */
  static BigDecimal gClosed(BigDecimal x) {
    return BigDecimal.ONE.subtract(BigDecimal.ONE.add(x).divide(exp(x), MC), MC);
  }

  static BigDecimal g(BigDecimal x) {
    return x.compareTo(BigDecimal.valueOf(20)) <= 0 ? gSeries(x) : gClosed(x);
  }

  /** g'(x) = x e^(-x). */
  static BigDecimal gPrime(BigDecimal x) {
    return x.divide(exp(x), MC);
  }

  /** Newton's method at 100 digits from {@code start}; fails loudly if it does not converge. */
  static BigDecimal gInverse(BigDecimal y, double start) {
    BigDecimal x = new BigDecimal(start);
    for (int i = 0; i < 100; i++) {
      BigDecimal residual = g(x).subtract(y, MC);
      if (residual.abs().compareTo(y.multiply(new BigDecimal("1e-60"))) < 0) {
        return x;
      }
      BigDecimal next = x.subtract(residual.divide(gPrime(x), MC), MC);
      if (next.signum() <= 0) {
        next = x.divide(BigDecimal.valueOf(2), MC);
      }
      x = next;
    }
    throw new AssertionError("reference inverse did not converge for y = " + y);
  }

  static double relErr(double actual, BigDecimal expected) {
    return new BigDecimal(actual).subtract(expected, MC).divide(expected, MC).abs().doubleValue();
  }
}
