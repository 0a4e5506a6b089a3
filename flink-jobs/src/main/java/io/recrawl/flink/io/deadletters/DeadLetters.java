package io.recrawl.flink.io.deadletters;

import io.recrawl.flink.types.WireTypes;
import io.recrawl.wire.DeadLetter;
import org.apache.flink.util.OutputTag;

/** The side output that every operator of the job uses for input it refuses. */
public final class DeadLetters {

  private DeadLetters() {}

  /** Dead letters, with their own serializer (no Kryo). */
  public static final OutputTag<DeadLetter> TAG =
      new OutputTag<>("dead-letters", WireTypes.DEAD_LETTER);
}
