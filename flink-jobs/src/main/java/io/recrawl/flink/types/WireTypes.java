package io.recrawl.flink.types;

import io.recrawl.wire.ControlMessage;
import io.recrawl.wire.CrawlRequest;
import io.recrawl.wire.DeadLetter;
import io.recrawl.wire.Parsed;
import io.recrawl.wire.StatusEvent;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/** The Flink type information of every record that crosses an operator boundary in the job. */
public final class WireTypes {

  private WireTypes() {}

  public static final TypeInformation<StatusEvent> STATUS_EVENT =
      new WireTypeInfo<>(StatusEvent.class, "StatusEvent", StatusEventSerializer.INSTANCE);
  public static final TypeInformation<CrawlRequest> CRAWL_REQUEST =
      new WireTypeInfo<>(CrawlRequest.class, "CrawlRequest", CrawlRequestSerializer.INSTANCE);
  public static final TypeInformation<ControlMessage> CONTROL_MESSAGE =
      new WireTypeInfo<>(ControlMessage.class, "ControlMessage", ControlMessageSerializer.INSTANCE);
  public static final TypeInformation<DeadLetter> DEAD_LETTER =
      new WireTypeInfo<>(DeadLetter.class, "DeadLetter", DeadLetterSerializer.INSTANCE);

  /** A status source's output: a status event or a dead letter. */
  public static final TypeInformation<Parsed<StatusEvent>> PARSED_STATUS_EVENT =
      new WireTypeInfo<>(Parsed.class, "Parsed<StatusEvent>", ParsedStatusEventSerializer.INSTANCE);

  /** A control source's output: a control message or a dead letter. */
  public static final TypeInformation<Parsed<ControlMessage>> PARSED_CONTROL_MESSAGE =
      new WireTypeInfo<>(
          Parsed.class, "Parsed<ControlMessage>", ParsedControlMessageSerializer.INSTANCE);
}
