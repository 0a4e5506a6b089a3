package io.recrawl.flink.config;

/** A configuration the job refuses at start-up; the message always begins with the key. */
public final class ConfigException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final String key;

  public ConfigException(String key, String problem) {
    super(key + ": " + problem);
    this.key = key;
  }

  /** The offending key. */
  public String key() {
    return key;
  }
}
