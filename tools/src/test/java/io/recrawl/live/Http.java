package io.recrawl.live;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** A bare HTTP/1.1 client that sends any Host header: what a crawler resolving the web sends. */
final class Http {

  record Response(int status, Map<String, String> headers, String body) {}

  private Http() {}

  static Response get(int port, String host, String path, String... headers) throws IOException {
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
      StringBuilder req = new StringBuilder("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\n");
      for (String h : headers) {
        req.append(h).append("\r\n");
      }
      req.append("Connection: close\r\n\r\n");
      OutputStream out = s.getOutputStream();
      out.write(req.toString().getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = s.getInputStream();
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      in.transferTo(all);
      String text = all.toString(StandardCharsets.UTF_8);
      int split = text.indexOf("\r\n\r\n");
      String[] head = text.substring(0, split).split("\r\n");
      Map<String, String> fields = new TreeMap<>();
      for (int i = 1; i < head.length; i++) {
        int colon = head[i].indexOf(':');
        fields.put(
            head[i].substring(0, colon).toLowerCase(Locale.ROOT),
            head[i].substring(colon + 1).trim());
      }
      return new Response(
          Integer.parseInt(head[0].split(" ")[1]), fields, text.substring(split + 4));
    }
  }
}
