package io.recrawl.flink.types;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.types.StringValue;

/** Binary encodings shared by the wire serializers: strings of any length, metadata multimaps. */
final class Fields {

  private Fields() {}

  /** Handles null and strings beyond DataOutput#writeUTF's 64 KB limit. */
  static void writeString(String s, DataOutputView out) throws IOException {
    StringValue.writeString(s, out);
  }

  static String readString(DataInputView in) throws IOException {
    return StringValue.readString(in);
  }

  static void writeMetadata(Map<String, List<String>> md, DataOutputView out) throws IOException {
    if (md == null) {
      out.writeInt(0);
      return;
    }
    out.writeInt(md.size());
    for (Map.Entry<String, List<String>> e : md.entrySet()) {
      writeString(e.getKey(), out);
      List<String> values = e.getValue();
      out.writeInt(values.size());
      for (String v : values) {
        writeString(v, out);
      }
    }
  }

  static Map<String, List<String>> readMetadata(DataInputView in) throws IOException {
    int n = in.readInt();
    if (n == 0) {
      return Collections.emptyMap();
    }
    Map<String, List<String>> md = new LinkedHashMap<>(n * 2);
    for (int i = 0; i < n; i++) {
      String key = readString(in);
      int m = in.readInt();
      List<String> values = new ArrayList<>(m);
      for (int j = 0; j < m; j++) {
        values.add(readString(in));
      }
      md.put(key, Collections.unmodifiableList(values));
    }
    return Collections.unmodifiableMap(md);
  }
}
