package io.recrawl.flink.types;

import java.util.Objects;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * Flink type information that always uses one hand-written serializer, so that a record never falls
 * back to Kryo (the job runs with {@code pipeline.generic-types: false}).
 *
 * @param <T> the record type
 */
public final class WireTypeInfo<T> extends TypeInformation<T> {

  private static final long serialVersionUID = 1L;

  private final Class<T> type;
  private final String name;
  private final TypeSerializer<T> serializer;

  @SuppressWarnings({"unchecked", "rawtypes"})
  WireTypeInfo(Class<?> type, String name, TypeSerializer<T> serializer) {
    this.type = (Class) type;
    this.name = name;
    this.serializer = serializer;
  }

  @Override
  public boolean isBasicType() {
    return false;
  }

  @Override
  public boolean isTupleType() {
    return false;
  }

  @Override
  public int getArity() {
    return 1;
  }

  @Override
  public int getTotalFields() {
    return 1;
  }

  @Override
  public Class<T> getTypeClass() {
    return type;
  }

  @Override
  public boolean isKeyType() {
    return false;
  }

  @Override
  public TypeSerializer<T> createSerializer(SerializerConfig config) {
    return serializer; // stateless and immutable: one instance serves every thread
  }

  @Override
  public String toString() {
    return name;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof WireTypeInfo<?> other
        && other.canEqual(this)
        && other.name.equals(name)
        && other.type == type;
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, type);
  }

  @Override
  public boolean canEqual(Object o) {
    return o instanceof WireTypeInfo;
  }
}
