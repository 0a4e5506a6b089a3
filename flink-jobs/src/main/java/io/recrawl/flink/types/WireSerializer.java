package io.recrawl.flink.types;

import java.io.IOException;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Base of the serializers of the immutable wire records: copying is free, only {@link #serialize}
 * and {@link #deserialize(DataInputView)} are specific.
 *
 * @param <T> the record type
 */
abstract class WireSerializer<T> extends TypeSerializerSingleton<T> {

  private static final long serialVersionUID = 1L;

  @Override
  public final boolean isImmutableType() {
    return true;
  }

  @Override
  public final T copy(T from) {
    return from;
  }

  @Override
  public final T copy(T from, T reuse) {
    return from;
  }

  @Override
  public final int getLength() {
    return -1;
  }

  @Override
  public final T deserialize(T reuse, DataInputView source) throws IOException {
    return deserialize(source);
  }

  @Override
  public final void copy(DataInputView source, DataOutputView target) throws IOException {
    serialize(deserialize(source), target);
  }
}
