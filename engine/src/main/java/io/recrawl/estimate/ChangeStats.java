package io.recrawl.estimate;

/** The bounded sufficient statistics of a page's change-rate posterior: Gamma(shape, rate). */
public record ChangeStats(double shape, double rate) {}
